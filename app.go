package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"vika/backend/corpus"
	"vika/backend/docserve"
	"vika/backend/engine"
	"vika/backend/message"
	"vika/backend/models"
	"vika/backend/retrieve"
)

// App holds the methods bound to the frontend. Each one converts, calls the
// engine and returns (T, error); all logic lives under backend/.
type App struct {
	ctx          context.Context
	eng          *engine.Engine
	initialFiles []string // from the command line, added once the page is ready
	models       *models.Manager
	answering    // the answering session and its settings (app_answer.go)
}

// NewApp returns the bound-method holder for eng.
func NewApp(eng *engine.Engine) *App {
	a := &App{eng: eng, models: &models.Manager{}}
	a.answering = newAnswering(eng)
	return a
}

func (a *App) startup(ctx context.Context) {
	a.ctx = ctx
	if s, err := a.Settings(); err == nil {
		_ = a.applyRemember(s) // a cache that cannot open leaves it off
	}
}

func (a *App) domReady(context.Context) {
	var pdfs []string
	for _, f := range a.initialFiles {
		if isCourse(f) { // a double-clicked course file; a refusal shows on its row
			if _, err := a.OpenCourse(f); err != nil {
				m := message.Of(err)
				a.emitProgress(engine.Progress{JobID: "course-" + filepath.Base(f), File: filepath.Base(f), Stage: engine.StageFailed, Error: err.Error(), Problem: &m})
			}
			continue
		}
		pdfs = append(pdfs, f)
	}
	a.initialFiles = nil
	_, _ = a.AddFiles(pdfs)
}

func (a *App) shutdown(context.Context) {
	a.rag.Close()
	a.models.Close()
	_ = a.eng.Close()
}

// emitProgress forwards ingestion progress to the frontend.
func (a *App) emitProgress(p engine.Progress) {
	runtime.EventsEmit(a.ctx, engine.EventIngestProgress, p)
	a.describeAfterAdd(p)
}

// AddFiles starts ingesting the files at paths and returns one job id per path.
func (a *App) AddFiles(paths []string) ([]string, error) {
	ids := make([]string, 0, len(paths))
	for _, p := range paths {
		ids = append(ids, a.eng.StartFile(p, a.emitProgress))
	}
	return ids, nil
}

// AddFileData starts ingesting a file whose bytes come from the webview
// (HTML drag and drop or a file input) and returns its job id.
func (a *App) AddFileData(name string, data []byte) (string, error) {
	return a.eng.StartBytes(name, data, a.emitProgress), nil
}

// PickFiles opens the native dialog to choose PDFs; it returns no paths when
// the user cancels.
func (a *App) PickFiles() ([]string, error) {
	paths, err := runtime.OpenMultipleFilesDialog(a.ctx, runtime.OpenDialogOptions{
		Title:   "Add PDFs",
		Filters: []runtime.FileFilter{{DisplayName: "PDF documents (*.pdf)", Pattern: "*.pdf;*.PDF"}},
	})
	if paths == nil {
		paths = []string{}
	}
	return paths, err
}

// Cancel stops a running ingestion job; it reports whether the job was running.
func (a *App) Cancel(jobID string) (bool, error) { return a.eng.Cancel(jobID), nil }

// Documents lists the documents of the session.
func (a *App) Documents() ([]corpus.Document, error) { return a.eng.Documents(a.ctx) }

// RemoveDocument removes a document and its passages from the session.
func (a *App) RemoveDocument(docID string) error { return a.eng.RemoveDocument(a.ctx, docID) }

// Search returns the k passages that best match question.
func (a *App) Search(question string, k int) ([]corpus.Hit, error) {
	return a.eng.Search(a.ctx, question, k)
}

// SearchWith returns the k passages that best match question in mode ("",
// "dense", "bm25" or "hybrid"), reranked when rerank is set and a
// cross-encoder is installed, with how they were found: the explorer's
// chunk lookup, which needs no LLM.
func (a *App) SearchWith(question, mode string, k int, rerank bool) (engine.SearchResult, error) {
	var m retrieve.Mode // "": the session's default mode
	if mode != "" {
		var err error
		if m, err = retrieve.ParseMode(mode); err != nil {
			return engine.SearchResult{}, err
		}
	}
	return a.eng.SearchWith(a.ctx, question, engine.SearchOptions{Mode: m, K: k, Rerank: rerank})
}

// Pages returns a document's extracted pages (for the explorer).
func (a *App) Pages(docID string) ([]corpus.Page, error) { return a.eng.Pages(a.ctx, docID) }

// Chunks returns a document's passages in reading order (for the explorer).
func (a *App) Chunks(docID string) ([]corpus.Chunk, error) { return a.eng.Chunks(a.ctx, docID) }

// documentFile is the viewer's source of PDF bytes (served at /docs/<id>).
func (a *App) documentFile(ctx context.Context, docID string) (corpus.Document, []byte, error) {
	doc, data, err := a.eng.DocumentFile(ctx, docID)
	if errors.Is(err, engine.ErrNotFound) {
		err = fmt.Errorf("%w: %w", docserve.ErrNotFound, err)
	}
	return doc, data, err
}
