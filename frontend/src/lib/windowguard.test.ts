import { fireEvent } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { carriesFiles, foreign, guardWindow } from './windowguard.ts';

let unguard: () => void = () => {};

beforeEach(() => {
  unguard = guardWindow(window);
  document.body.innerHTML = `
    <div id="zone">zone</div>
    <textarea id="ask"></textarea>
    <a id="out" href="https://evil.example/">out</a>
    <a id="js" href="javascript:alert(1)">js</a>
    <a id="in" href="#top">in</a>
    <form id="form" action="https://evil.example/steal"><button>go</button></form>`;
});

afterEach(() => {
  unguard();
  document.body.innerHTML = '';
});

function el(id: string): HTMLElement {
  const e = document.getElementById(id);
  if (!e) throw new Error(`no #${id}`);
  return e;
}

/** A drag's data as the browser gives it: its types, and files. */
function transfer(types: string[], files: File[] = []) {
  return { types, files, dropEffect: 'copy' };
}

describe('window guard', () => {
  it('refuses a dragged URL anywhere but in a text field', async () => {
    const url = transfer(['text/uri-list', 'text/plain']);
    const over = new Event('dragover', { bubbles: true, cancelable: true });
    Object.assign(over, { dataTransfer: url });
    el('zone').dispatchEvent(over);
    expect(over.defaultPrevented).toBe(true);
    expect(url.dropEffect).toBe('none');

    expect(await fireEvent.drop(el('zone'), { dataTransfer: transfer(['text/uri-list']) })).toBe(false);
    expect(await fireEvent.drop(document.body, { dataTransfer: transfer(['text/plain']) })).toBe(false);
    // Dropping text into the question box inserts it: allowed.
    expect(await fireEvent.dragOver(el('ask'), { dataTransfer: transfer(['text/plain']) })).toBe(true);
    expect(await fireEvent.drop(el('ask'), { dataTransfer: transfer(['text/plain']) })).toBe(true);
  });

  it('leaves file drags to the library, and never lets the webview open a file', async () => {
    const file = new File(['%PDF-1.7'], 'a.pdf', { type: 'application/pdf' });
    const files = transfer(['Files'], [file]);
    expect(await fireEvent.dragOver(el('zone'), { dataTransfer: files })).toBe(true); // not refused
    expect(files.dropEffect).toBe('copy');
    expect(await fireEvent.drop(el('zone'), { dataTransfer: files })).toBe(false); // default (open) cancelled
    expect(await fireEvent.drop(el('ask'), { dataTransfer: files })).toBe(false);
  });

  it('never follows a link or a form to another origin', async () => {
    expect(await fireEvent.click(el('out'))).toBe(false);
    expect(await fireEvent.click(el('js'))).toBe(false);
    expect(await fireEvent(el('out'), new MouseEvent('auxclick', { bubbles: true, cancelable: true, button: 1 }))).toBe(false);
    expect(await fireEvent.click(el('in'))).toBe(true);
    expect(await fireEvent.submit(el('form'))).toBe(false);
  });

  it('stops guarding once removed', async () => {
    unguard();
    expect(await fireEvent.drop(el('zone'), { dataTransfer: transfer(['text/uri-list']) })).toBe(true);
    unguard = () => {};
  });

  it('tells files and foreign URLs apart', () => {
    expect(carriesFiles(transfer(['Files']) as unknown as DataTransfer)).toBe(true);
    expect(carriesFiles(transfer(['text/uri-list']) as unknown as DataTransfer)).toBe(false);
    expect(carriesFiles(null)).toBe(false);
    const base = 'http://wails.localhost/index.html';
    expect(foreign('https://evil.example/', base)).toBe(true);
    expect(foreign('file:///etc/passwd', base)).toBe(true);
    expect(foreign('data:text/html,x', base)).toBe(true);
    expect(foreign('/docs/abc', base)).toBe(false);
    expect(foreign('#top', base)).toBe(false);
  });
});
