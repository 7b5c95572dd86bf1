// Drives the generated wailsjs bindings through fake window.go / window.runtime
// objects, as the Wails runtime would install them.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from './index.ts';
import type { IngestProgress } from './types.ts';

const App = {
  AddFiles: vi.fn(),
  AddFileData: vi.fn(),
  PickFiles: vi.fn(),
  Documents: vi.fn(),
  RemoveDocument: vi.fn(),
  Search: vi.fn(),
  Cancel: vi.fn(),
  Ask: vi.fn(),
  CancelAsk: vi.fn(),
  Conversation: vi.fn(),
  ClearConversation: vi.fn(),
  ExportConversation: vi.fn(),
  ListenQuit: vi.fn(),
  Quit: vi.fn(),
};
const runtime = {
  EventsOnMultiple: vi.fn(),
  EventsOff: vi.fn(),
  OnFileDrop: vi.fn(),
  OnFileDropOff: vi.fn(),
  BrowserOpenURL: vi.fn(),
  Quit: vi.fn(),
};

beforeEach(() => {
  window.go = { main: { App } };
  window.runtime = runtime;
});

afterEach(() => {
  delete window.go;
  delete window.runtime;
  delete window.wails;
  delete window.chrome;
  delete window.webkit;
});

describe('api calls', () => {
  it('passes arguments through to the bound methods', async () => {
    App.AddFiles.mockResolvedValue(['j1', 'j2']);
    App.Search.mockResolvedValue({ hits: [], stats: {} });
    App.Cancel.mockResolvedValue(true);

    expect(await api.addFiles(['/a.pdf', '/b.pdf'])).toEqual(['j1', 'j2']);
    expect(App.AddFiles).toHaveBeenCalledWith(['/a.pdf', '/b.pdf']);
    await api.search('what is SAT?', 'bm25', 'rrf', 8, true);
    expect(App.Search).toHaveBeenCalledWith('what is SAT?', 'bm25', 'rrf', 8, true);
    expect(await api.cancel('j1')).toBe(true);
    await api.removeDocument('abc');
    expect(App.RemoveDocument).toHaveBeenCalledWith('abc');
  });

  it('sends a browser file as its name and base64 bytes', async () => {
    App.AddFileData.mockResolvedValue('j9');
    const file = new File(['%PDF-1.7'], 'cours.pdf', { type: 'application/pdf' });
    expect(await api.addFile(file)).toBe('j9');
    expect(App.AddFileData).toHaveBeenCalledWith('cours.pdf', 'JVBERi0xLjc=');
  });

  it('turns Go nil slices into empty arrays', async () => {
    App.Documents.mockResolvedValue(null);
    App.PickFiles.mockResolvedValue(null);
    App.AddFiles.mockResolvedValue(null);
    expect(await api.documents()).toEqual([]);
    expect(await api.pickFiles()).toEqual([]);
    expect(await api.addFiles([])).toEqual([]);
  });

  it('rejects with an Error carrying the Go error text', async () => {
    App.AddFileData.mockRejectedValue('not a PDF: the file does not start with %PDF-');
    await expect(api.addFile(new File(['hello'], 'notes.txt'))).rejects.toThrow(
      new Error('not a PDF: the file does not start with %PDF-'),
    );
  });

  it('says so when the backend is not there', async () => {
    delete window.go;
    await expect(api.documents()).rejects.toBeInstanceOf(api.BackendUnavailableError);
  });
});

describe('api events', () => {
  it('subscribes to ingest progress and unsubscribes', () => {
    const off = vi.fn();
    runtime.EventsOnMultiple.mockReturnValue(off);
    const seen: IngestProgress[] = [];

    const unsubscribe = api.onIngestProgress((p) => seen.push(p));
    expect(runtime.EventsOnMultiple).toHaveBeenCalledWith('ingest:progress', expect.any(Function), -1);

    const deliver = runtime.EventsOnMultiple.mock.calls[0]?.[1] as (p: IngestProgress) => void;
    const event: IngestProgress = { job_id: 'j1', file: 'a.pdf', stage: 'queued', done: 0, total: 0 };
    deliver(event);
    expect(seen).toEqual([event]);

    unsubscribe();
    expect(off).toHaveBeenCalled();
  });

  it('listens for native drops on the whole window', () => {
    const paths: string[][] = [];
    const stop = api.onNativeFileDrop((p) => paths.push(p));
    expect(runtime.OnFileDrop).toHaveBeenCalledWith(expect.any(Function), false);

    const deliver = runtime.OnFileDrop.mock.calls[0]?.[0] as (x: number, y: number, p: string[]) => void;
    deliver(10, 20, ['/home/ana/a.pdf']);
    expect(paths).toEqual([['/home/ana/a.pdf']]);

    stop();
    expect(runtime.OnFileDropOff).toHaveBeenCalled();
  });

  it('does nothing without the runtime (plain vite dev server)', () => {
    delete window.runtime;
    expect(() => api.onIngestProgress(() => {})()).not.toThrow();
    expect(() => api.onNativeFileDrop(() => {})()).not.toThrow();
  });

  it('tells the native window from a browser', () => {
    expect(api.nativeWindow()).toBe(false);
    expect(api.nativeFileDrop()).toBe(false);

    window.webkit = { messageHandlers: { external: { postMessage: () => {} } } };
    expect(api.nativeWindow()).toBe(true);
    delete window.webkit;
    window.chrome = { webview: { postMessage: () => {} } };
    expect(api.nativeWindow()).toBe(true);

    window.wails = { flags: { enableWailsDragAndDrop: true } };
    expect(api.nativeFileDrop()).toBe(true);
  });
});

describe('api answers', () => {
  it('asks, cancels, lists, clears and exports through the bound methods', async () => {
    App.Ask.mockResolvedValue('ask-7');
    App.CancelAsk.mockResolvedValue(true);
    App.Conversation.mockResolvedValue(null);
    App.ExportConversation.mockResolvedValue('/tmp/c.html');

    const opts = { provider: '', model: '', mode: 'bm25' as const, k: 8, history: true, hyde: false, multi_query: false, rerank: true, scope: {} };
    expect(await api.ask('ask-7', 'What is SAT?', opts)).toBe('ask-7');
    expect(App.Ask).toHaveBeenCalledWith('ask-7', 'What is SAT?', opts);
    expect(await api.cancelAsk('ask-7')).toBe(true);
    expect(App.CancelAsk).toHaveBeenCalledWith('ask-7');
    expect(await api.conversation()).toEqual([]);
    await api.clearConversation();
    expect(App.ClearConversation).toHaveBeenCalled();
    expect(await api.exportConversation('html')).toBe('/tmp/c.html');
    expect(App.ExportConversation).toHaveBeenCalledWith('html');
  });

  it('rejects readably when Ask refuses the question', async () => {
    App.Ask.mockRejectedValue('empty question');
    await expect(api.ask('ask-8', '  ', { provider: '', model: '', mode: '', k: 0, history: true, hyde: false, multi_query: false, rerank: true, scope: {} })).rejects.toThrow(new Error('empty question'));
  });

  it('listens for the quit question, tells Go the page asks it, and quits', async () => {
    App.ListenQuit.mockResolvedValue(undefined);
    App.Quit.mockResolvedValue(undefined);
    let asked = 0;
    api.onQuitRequested(() => asked++);
    expect(runtime.EventsOnMultiple).toHaveBeenCalledWith('app:quit-requested', expect.any(Function), -1);
    expect(App.ListenQuit).toHaveBeenCalled();
    const deliver = runtime.EventsOnMultiple.mock.calls[0]?.[1] as () => void;
    deliver();
    expect(asked).toBe(1);
    api.closeWindow();
    expect(runtime.Quit).toHaveBeenCalled();
    await api.quit();
    expect(App.Quit).toHaveBeenCalled();
  });

  it('subscribes to one answer’s channel', () => {
    const off = vi.fn();
    runtime.EventsOnMultiple.mockReturnValue(off);
    const seen: unknown[] = [];
    const stop = api.onAnswer('ask-7', (e) => seen.push(e));
    expect(runtime.EventsOnMultiple).toHaveBeenCalledWith('answer:ask-7', expect.any(Function), -1);
    const deliver = runtime.EventsOnMultiple.mock.calls[0]?.[1] as (e: unknown) => void;
    deliver({ type: 'delta', text: 'x' });
    expect(seen).toEqual([{ type: 'delta', text: 'x' }]);
    stop();
    expect(off).toHaveBeenCalled();
  });

  it('opens only http(s) links in the system browser', () => {
    expect(api.openExternal('https://example.org/a')).toBe(true);
    expect(runtime.BrowserOpenURL).toHaveBeenCalledWith('https://example.org/a');
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', '/docs/x']) expect(api.openExternal(bad)).toBe(false);
    expect(runtime.BrowserOpenURL).toHaveBeenCalledTimes(1);
  });

  it('serves documents from /docs/<id>', () => {
    expect(api.documentURL('a3f1c9')).toBe('/docs/a3f1c9');
    expect(api.documentURL('../x y')).toBe('/docs/..%2Fx%20y');
  });
});
