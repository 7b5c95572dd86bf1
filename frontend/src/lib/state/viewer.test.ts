import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../test/api/fake.ts';
import { sampleDocument } from '../../test/api/fake.ts';
import { locale } from './locale.svelte.ts';
import { Viewer, ZOOM_STEPS } from './viewer.svelte.ts';

vi.mock('../api/index.ts', () => import('../../test/api/fake.ts'));

beforeEach(() => locale.set('en'));

const target = { doc_id: 'a3f1c9', file: 'lecture_sat.pdf', page: 42, passage: 'A formula is satisfiable.' };

describe('Viewer', () => {
  it('opens a document at the cited page and loads it from /docs/<id>', () => {
    const viewer = new Viewer();
    expect(viewer.isOpen).toBe(false);
    viewer.open(target);
    expect(viewer).toMatchObject({ isOpen: true, page: 42, status: 'loading', zoom: 'fit', highlight: 'pending' });
    expect(viewer.url).toBe('/docs/a3f1c9');
    expect(viewer.passage).toBe(target.passage);
    viewer.loaded(50);
    expect(viewer.status).toBe('ready');
  });

  it('knows a slide deck from its document, and a PDF after it', async () => {
    api.documents.mockResolvedValue([
      sampleDocument({ doc_id: 'deck', label: 'cours3.pptx', format: 'pptx', unit: 'slide', pages: 3 }),
      sampleDocument({ doc_id: 'a3f1c9' }),
    ]);
    const viewer = new Viewer();
    viewer.open({ doc_id: 'deck', file: 'cours3.pptx', page: 2, passage: 'Moraine sediments were dated.' });
    await vi.waitFor(() => expect(viewer.slides).toBe(true));
    viewer.open(target);
    expect(viewer.slides).toBe(false);
    await Promise.resolve();
    expect(viewer.slides).toBe(false);
  });

  it('highlights only on the cited page', () => {
    const viewer = new Viewer();
    viewer.open(target);
    viewer.loaded(50);
    viewer.next();
    expect(viewer.page).toBe(43);
    expect(viewer.passage).toBe('');
    expect(viewer.highlight).toBe('none');
    viewer.prev();
    expect(viewer.passage).toBe(target.passage);
    expect(viewer.highlight).toBe('pending');
  });

  it('outlines a table, figure or formula box on the cited page only', () => {
    const viewer = new Viewer();
    viewer.open({ ...target, passage: '', box: [72, 90, 300, 240] });
    expect(viewer.highlight).toBe('pending');
    expect(viewer.box).toEqual([72, 90, 300, 240]);
    viewer.loaded(50);
    viewer.next();
    expect(viewer.box).toBeNull();
    expect(viewer.highlight).toBe('none');
    viewer.prev();
    expect(viewer.highlight).toBe('pending');
    viewer.rendered(1.5, true);
    expect(viewer.highlight).toBe('found');
    viewer.open(target);
    expect(viewer.box).toBeNull();
  });

  it('clamps page numbers to the document', () => {
    const viewer = new Viewer();
    viewer.open({ ...target, page: 1 });
    viewer.loaded(3);
    viewer.prev();
    expect(viewer.page).toBe(1);
    expect(viewer.canPrev).toBe(false);
    viewer.goTo(99);
    expect(viewer.page).toBe(3);
    expect(viewer.canNext).toBe(false);
    viewer.goTo(Number.NaN);
    expect(viewer.page).toBe(3);
    viewer.goTo(2.4);
    expect(viewer.page).toBe(2);
  });

  it('moves to the last page when the cited page is past the end', () => {
    const viewer = new Viewer();
    viewer.open({ ...target, page: 80 });
    viewer.loaded(12);
    expect(viewer.page).toBe(12);
  });

  it('zooms by steps from the scale drawn, and back to fit', () => {
    const viewer = new Viewer();
    viewer.open(target);
    viewer.rendered(0.93, true);
    expect(viewer.highlight).toBe('found');
    viewer.zoomIn();
    expect(viewer.zoom).toBe(1);
    viewer.rendered(1, true);
    viewer.zoomOut();
    expect(viewer.zoom).toBe(0.8);
    viewer.rendered(ZOOM_STEPS.at(-1)!, false);
    expect(viewer.highlight).toBe('missing');
    viewer.zoomIn();
    expect(viewer.zoom).toBe(ZOOM_STEPS.at(-1));
    viewer.fit();
    expect(viewer.zoom).toBe('fit');
  });

  it('keeps a loaded document when another page of it is opened, reloads another', () => {
    const viewer = new Viewer();
    viewer.open(target);
    viewer.loaded(50);
    viewer.open({ ...target, page: 3 });
    expect(viewer.status).toBe('ready');
    expect(viewer.pageCount).toBe(50);
    viewer.open({ ...target, doc_id: 'other' });
    expect(viewer.status).toBe('loading');
    expect(viewer.pageCount).toBe(0);
  });

  it('says why a document could not be opened, and closes', () => {
    const viewer = new Viewer();
    viewer.open(target);
    viewer.failed(new Error('Unexpected server response (404)'));
    expect(viewer.status).toBe('error');
    expect(viewer.error).toBe('This PDF could not be opened: Unexpected server response (404)');
    viewer.close();
    expect(viewer).toMatchObject({ isOpen: false, status: 'idle', error: null });
  });
});
