package engine

import (
	"context"
	"errors"
	"path/filepath"

	"vika/backend/corpus"
	"vika/backend/message"
)

// StartFile adds the PDF at path in the background and returns the job
// id. Every step, and finally one done, failed or cancelled event, goes to
// progress, called from the job's goroutine (never concurrently for one
// job). At most MaxJobs adds read PDFs at once (a long one gives its
// place to a waiting add at its share, ingest.ReadShare) and MaxJobs
// embed; the others wait as "queued". The document is searchable by BM25 from its
// "searchable" event on; "done" comes when its vectors are indexed.
func (e *Engine) StartFile(path string, progress func(Progress)) string {
	return e.start(filepath.Base(path), progress, func(ctx context.Context, id string, p func(Progress)) (corpus.Document, error) {
		r, err := e.addFile(ctx, id, path, p)
		return r.Doc, err
	})
}

// StartBytes is StartFile for a PDF given as bytes named name.
func (e *Engine) StartBytes(name string, data []byte, progress func(Progress)) string {
	return e.start(fileName(name), progress, func(ctx context.Context, id string, p func(Progress)) (corpus.Document, error) {
		r, err := e.add(ctx, id, name, data, p)
		return r.Doc, err
	})
}

// Cancel cancels a queued or running job. It returns false if the job is
// unknown or already finished.
func (e *Engine) Cancel(jobID string) bool { return e.jobs.Cancel(jobID) }

type addFunc func(ctx context.Context, jobID string, progress func(Progress)) (corpus.Document, error)

// start runs an add as a job of e.jobs. A panic in the add (a bug reached
// by odd input) fails this job with message.Internal and a log line; the
// session goes on.
func (e *Engine) start(name string, progress func(Progress), run addFunc) string {
	if progress == nil {
		progress = func(Progress) {}
	}
	id := e.jobs.NewID()
	closed := Progress{JobID: id, File: name, Stage: StageFailed, Error: ErrClosed.Error(), Problem: &message.Message{Code: message.SessionClosed}}
	if e.isClosed() { // Close has begun: its jobs are being cancelled
		progress(closed)
		return id
	}
	var doc corpus.Document
	_, err := e.jobs.Start(e.ctx, id, func(ctx context.Context) error {
		progress(Progress{JobID: id, File: name, Stage: StageQueued})
		var err error
		doc, err = run(ctx, id, progress)
		return err
	}, func(ctx context.Context, err error) {
		final := Progress{JobID: id, File: name, Stage: StageDone, Done: 1, Total: 1}
		switch {
		case err == nil && doc.ID != "":
			final.Doc = &doc
		case err == nil: // a job that adds no document of its own (a course)
		case errors.Is(err, context.Canceled) && ctx.Err() != nil:
			final.Stage, final.Error = StageCancelled, "cancelled"
		default:
			m := message.Of(err)
			final.Stage, final.Error, final.Problem, final.Done = StageFailed, err.Error(), &m, 0
		}
		progress(final)
	})
	if err != nil { // closed meanwhile
		progress(closed)
	}
	return id
}
