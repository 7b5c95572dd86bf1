import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../test/api/fake.ts';
import { dropPaths, emitProgress, progress, resetFakeApi, sampleDocument } from '../../test/api/fake.ts';
import { BridgeError } from '../api/call.ts';
import { Library } from './library.svelte.ts';
import { locale } from './locale.svelte.ts';

vi.mock('../api/index.ts', () => import('../../test/api/fake.ts'));

function started(): Library {
  const library = new Library();
  library.start();
  return library;
}

beforeEach(() => {
  resetFakeApi();
  locale.set('en');
});

describe('Library progress events', () => {
  it('creates a job on the first event and follows its stages', () => {
    const library = started();
    emitProgress(progress({ job_id: 'j1', stage: 'queued' }));
    expect(library.jobs).toMatchObject([{ id: 'j1', file: 'lecture_sat.pdf', stage: 'queued' }]);

    emitProgress(progress({ job_id: 'j1', stage: 'extracting', done: 3, total: 42 }));
    expect(library.jobs).toHaveLength(1);
    expect(library.jobs[0]).toMatchObject({ stage: 'extracting', done: 3, total: 42 });
    expect(library.running).toHaveLength(1);
  });

  it('lists a searchable document while its vectors are computed, then the done one', () => {
    const library = started();
    const embedding = sampleDocument({ embedding: true });
    const done = sampleDocument();
    emitProgress(progress({ job_id: 'j1', stage: 'chunking' }));
    emitProgress(progress({ job_id: 'j1', stage: 'searchable', doc: embedding }));
    expect(library.jobs).toEqual([]);
    expect(library.documents).toEqual([embedding]);

    emitProgress(progress({ job_id: 'j1', stage: 'embedding', done: 10, total: 180 }));
    expect(library.jobs).toEqual([]); // no progress row once the document is listed
    emitProgress(progress({ job_id: 'j1', stage: 'done', doc: done }));
    expect(library.documents).toEqual([done]);
    expect(library.documents[0]?.embedding).toBeFalsy();
  });

  it('reloads the list when a searchable document fails to get its vectors', async () => {
    const library = started();
    emitProgress(progress({ job_id: 'j1', stage: 'searchable', doc: sampleDocument({ embedding: true }) }));
    api.documents.mockResolvedValue([]);
    emitProgress(progress({ job_id: 'j1', stage: 'cancelled' }));
    await vi.waitFor(() => expect(library.documents).toEqual([]));
    expect(library.jobs).toEqual([]);
  });

  it('says why a document listed while its pages were read failed, and drops it', async () => {
    const library = started();
    emitProgress(progress({ job_id: 'j1', stage: 'searchable', doc: sampleDocument({ embedding: true, reading: 20 }) }));
    expect(library.jobs).toEqual([]);
    api.documents.mockResolvedValue([]);
    emitProgress(
      progress({ job_id: 'j1', stage: 'failed', error: 'the PDF reader gave up', problem: { code: 'ingest.reader_gave_up' } }),
    );
    await vi.waitFor(() => expect(library.documents).toEqual([]));
    expect(library.jobs).toMatchObject([{ id: 'j1', stage: 'failed', problem: { code: 'ingest.reader_gave_up' } }]);
  });

  it('lists a PDF of a folder once it is searchable, its job counted by the folder', () => {
    const library = started();
    library.onProgress = () => true; // a folder batch's job
    const reading = sampleDocument({ embedding: true, reading: 4 });
    emitProgress(progress({ job_id: 'j1', stage: 'ocr', done: 1, total: 5 }));
    expect(library.documents).toEqual([]);
    emitProgress(progress({ job_id: 'j1', stage: 'searchable', doc: reading }));
    expect(library.documents).toEqual([reading]);
    const done = sampleDocument();
    emitProgress(progress({ job_id: 'j1', stage: 'done', doc: done }));
    expect(library.documents).toEqual([done]);
    expect(library.jobs).toEqual([]);
  });

  it('turns a done job into a document', () => {
    const library = started();
    const doc = sampleDocument();
    emitProgress(progress({ job_id: 'j1', stage: 'indexing', done: 170, total: 180 }));
    emitProgress(progress({ job_id: 'j1', stage: 'done', doc }));

    expect(library.jobs).toEqual([]);
    expect(library.documents).toEqual([doc]);
    expect(library.isEmpty).toBe(false);
  });

  it('reloads the documents when done carries no document', async () => {
    const doc = sampleDocument();
    api.documents.mockResolvedValue([doc]);
    const library = started();
    emitProgress(progress({ job_id: 'j1', stage: 'done' }));
    await vi.waitFor(() => expect(library.documents).toEqual([doc]));
  });

  it('shows the passage count a describing job leaves, done, failed or cancelled', async () => {
    const library = started();
    const before = sampleDocument({ chunks: 87 });
    emitProgress(progress({ job_id: 'j1', stage: 'done', doc: before }));
    emitProgress(progress({ job_id: 'j2', stage: 'describing', done: 3, total: 13 }));
    emitProgress(progress({ job_id: 'j2', stage: 'done', doc: sampleDocument({ chunks: 100 }) }));
    expect(library.documents).toMatchObject([{ doc_id: before.doc_id, chunks: 100 }]);
    expect(api.documents).not.toHaveBeenCalled();

    // Failed or cancelled: the event has no document, but what was
    // described stays, so the documents are read again.
    api.documents.mockResolvedValue([sampleDocument({ chunks: 104 })]);
    emitProgress(progress({ job_id: 'j3', stage: 'describing', done: 1, total: 5 }));
    emitProgress(progress({ job_id: 'j3', stage: 'failed', error: 'rate limited' }));
    await vi.waitFor(() => expect(library.documents).toMatchObject([{ chunks: 104 }]));
    api.documents.mockResolvedValue([sampleDocument({ chunks: 106 })]);
    emitProgress(progress({ job_id: 'j4', stage: 'describing', done: 1, total: 5 }));
    emitProgress(progress({ job_id: 'j4', stage: 'cancelled' }));
    await vi.waitFor(() => expect(library.documents).toMatchObject([{ chunks: 106 }]));
    expect(api.documents).toHaveBeenCalledTimes(2);

    // A failed add changes no document: nothing is read again.
    emitProgress(progress({ job_id: 'j5', stage: 'validating' }));
    emitProgress(progress({ job_id: 'j5', stage: 'failed', error: 'not a PDF' }));
    expect(api.documents).toHaveBeenCalledTimes(2);
  });

  it('keeps a failed file on its row with its message, and the other documents', () => {
    const library = started();
    const kept = sampleDocument();
    emitProgress(progress({ job_id: 'j1', stage: 'done', doc: kept }));
    emitProgress(progress({ job_id: 'j2', file: 'notes.txt', stage: 'validating' }));
    emitProgress(
      progress({
        job_id: 'j2',
        file: 'notes.txt',
        stage: 'failed',
        error: 'not a PDF: the file does not start with %PDF-',
      }),
    );

    expect(library.documents).toEqual([kept]);
    expect(library.jobs).toMatchObject([
      { id: 'j2', file: 'notes.txt', stage: 'failed', error: 'not a PDF: the file does not start with %PDF-' },
    ]);
    expect(library.running).toEqual([]);

    library.dismiss('j2');
    expect(library.jobs).toEqual([]);
    expect(library.documents).toEqual([kept]);
  });

  it('gives a failure without a message a readable one', () => {
    const library = started();
    emitProgress(progress({ job_id: 'j1', stage: 'failed', error: '  ' }));
    expect(library.jobs[0]?.error).toBe('Something went wrong. Please try again.');
  });

  it('ignores events that arrive after a job ended', () => {
    const library = started();
    emitProgress(progress({ job_id: 'j1', stage: 'cancelled' }));
    emitProgress(progress({ job_id: 'j1', stage: 'indexing', done: 1, total: 2 }));
    expect(library.jobs).toEqual([]);
  });

  it('stops listening once stopped', () => {
    const library = new Library();
    const stop = library.start();
    stop();
    emitProgress(progress({ job_id: 'j1', stage: 'queued' }));
    expect(library.jobs).toEqual([]);
  });
});

describe('Library adding files', () => {
  it('adds paths dropped on the native window, one job per path', async () => {
    const library = started();
    dropPaths(['/home/ana/cours/lecture_sat.pdf', 'C:\\Users\\ana\\paper.pdf']);
    await vi.waitFor(() => expect(library.jobs).toHaveLength(2));

    expect(api.addDropped).toHaveBeenCalledWith(['/home/ana/cours/lecture_sat.pdf', 'C:\\Users\\ana\\paper.pdf']);
    expect(library.jobs).toMatchObject([
      { id: 'job-1', file: 'lecture_sat.pdf', stage: 'queued', local: false },
      { id: 'job-2', file: 'paper.pdf', stage: 'queued', local: false },
    ]);
  });

  it('does not resurrect a job whose last event came before AddFiles returned', async () => {
    const library = started();
    api.addFiles.mockImplementation(async () => {
      emitProgress(progress({ job_id: 'fast', stage: 'done', doc: sampleDocument() }));
      return ['fast'];
    });
    await library.addPaths(['/tmp/lecture_sat.pdf']);
    expect(library.jobs).toEqual([]);
    expect(library.documents).toHaveLength(1);
  });

  it('shows a failure on each file when AddFiles itself fails', async () => {
    const library = started();
    api.addFiles.mockRejectedValue(new Error('the session is closing'));
    await library.addPaths(['/tmp/a.pdf', '/tmp/b.pdf']);
    expect(library.jobs).toMatchObject([
      { file: 'a.pdf', stage: 'failed', error: 'the session is closing', local: true },
      { file: 'b.pdf', stage: 'failed', error: 'the session is closing', local: true },
    ]);
  });

  it('reads browser files one at a time and tracks their jobs', async () => {
    const library = started();
    const a = new File(['%PDF-1.7 a'], 'a.pdf', { type: 'application/pdf' });
    const b = new File(['%PDF-1.7 b'], 'b.pdf', { type: 'application/pdf' });
    let inFlight = 0;
    let maxInFlight = 0;
    api.addFile.mockImplementation(async (file) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await Promise.resolve();
      inFlight--;
      return `id-${file.name}`;
    });

    await library.addFiles([a, b]);

    expect(maxInFlight).toBe(1);
    expect(library.jobs).toMatchObject([
      { id: 'id-a.pdf', file: 'a.pdf', stage: 'queued' },
      { id: 'id-b.pdf', file: 'b.pdf', stage: 'queued' },
    ]);
  });

  it('keeps one row per browser file when its events come before its id', async () => {
    const library = started();
    api.addFile.mockImplementation(async () => {
      emitProgress(progress({ job_id: 'early', file: 'a.pdf', stage: 'validating' }));
      return 'early';
    });
    await library.addFiles([new File(['%PDF-'], 'a.pdf')]);
    expect(library.jobs).toMatchObject([{ id: 'early', stage: 'validating', local: false }]);
  });

  it('shows "reading" while a browser file is handed over, and its error if refused', async () => {
    const library = started();
    let refuse!: (reason: unknown) => void;
    api.addFile.mockReturnValue(new Promise((_, reject) => (refuse = reject)));

    const adding = library.addFiles([new File([], 'empty.pdf')]);
    expect(library.jobs).toMatchObject([{ file: 'empty.pdf', stage: 'reading', local: true }]);

    refuse('empty file (0 bytes)');
    await adding;
    expect(library.jobs).toMatchObject([{ file: 'empty.pdf', stage: 'failed', error: 'empty file (0 bytes)' }]);
  });

  it('ignores page drops when the native window reports them as paths', () => {
    const library = started();
    api.nativeFileDrop.mockReturnValue(true);
    library.dropFiles([new File(['%PDF-'], 'a.pdf')]);
    expect(api.addFile).not.toHaveBeenCalled();
    expect(library.jobs).toEqual([]);
  });

  it('uses the native dialog only in the native window', async () => {
    const library = started();
    expect(library.pickNative()).toBe(false);
    expect(api.pickFiles).not.toHaveBeenCalled();

    api.nativeWindow.mockReturnValue(true);
    api.pickFiles.mockResolvedValue(['/tmp/lecture_sat.pdf']);
    expect(library.pickNative()).toBe(true);
    await vi.waitFor(() => expect(api.addFiles).toHaveBeenCalledWith(['/tmp/lecture_sat.pdf']));
  });

  it('adds nothing when the dialog is cancelled', async () => {
    const library = started();
    api.pickFiles.mockResolvedValue([]);
    await library.pick();
    expect(api.addFiles).not.toHaveBeenCalled();
    expect(library.jobs).toEqual([]);
  });
});

describe('Library cancel and remove', () => {
  it('cancels a running job; the cancelled event removes its row', async () => {
    const library = started();
    emitProgress(progress({ job_id: 'j1', stage: 'extracting', done: 1, total: 10 }));

    const cancelling = library.cancel('j1');
    expect(library.jobs[0]?.cancelling).toBe(true);
    await cancelling;
    expect(api.cancel).toHaveBeenCalledWith('j1');

    emitProgress(progress({ job_id: 'j1', stage: 'cancelled' }));
    expect(library.jobs).toEqual([]);
    expect(library.error).toBeNull();
  });

  it('drops the row and reloads when the job had already finished', async () => {
    const doc = sampleDocument();
    const library = started();
    emitProgress(progress({ job_id: 'j1', stage: 'indexing' }));
    api.cancel.mockResolvedValue(false);
    api.documents.mockResolvedValue([doc]);

    await library.cancel('j1');
    expect(library.jobs).toEqual([]);
    expect(library.documents).toEqual([doc]);
  });

  it('is silent when cancel reports a cancellation, and shows other errors', async () => {
    const library = started();
    emitProgress(progress({ job_id: 'j1', stage: 'indexing' }));

    api.cancel.mockRejectedValueOnce(new BridgeError({ message: 'context canceled', code: 'error.cancelled' }));
    await library.cancel('j1');
    expect(library.error).toBeNull();

    api.cancel.mockRejectedValueOnce(new Error('no such job: j1'));
    await library.cancel('j1');
    expect(library.error).toBe('no such job: j1');
    expect(library.jobs[0]?.cancelling).toBe(false);
  });

  it('removes a document and keeps the others', async () => {
    const a = sampleDocument({ doc_id: 'a', label: 'a.pdf' });
    const b = sampleDocument({ doc_id: 'b', label: 'b.pdf' });
    api.documents.mockResolvedValue([a, b]);
    const library = started();
    await library.load();

    await library.remove('a');
    expect(api.removeDocument).toHaveBeenCalledWith('a');
    expect(library.documents).toEqual([b]);
  });

  it('keeps the document and says why when removal fails', async () => {
    const a = sampleDocument();
    api.documents.mockResolvedValue([a]);
    api.removeDocument.mockRejectedValue('document is being indexed');
    const library = started();
    await library.load();

    await library.remove(a.doc_id);
    expect(library.documents).toEqual([a]);
    expect(library.error).toBe('document is being indexed');
    library.dismissError();
    expect(library.error).toBeNull();
  });
});
