package main

import (
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"vika/backend/convert"
	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/retrieve"
)

// The library page API (frontend/src/lib/api/library.ts): adding,
// listing and exploring documents, and searching their passages.

// AddFiles starts adding the files at paths and returns one job id per path.
func (a *App) AddFiles(paths []string) ([]string, error) {
	ids := make([]string, 0, len(paths))
	for _, p := range paths {
		ids = append(ids, a.s.StartFile(p))
	}
	return ids, nil
}

// AddFileData starts adding a file whose bytes come from the webview
// (HTML drag and drop or a file input) and returns its job id.
func (a *App) AddFileData(name string, data []byte) (string, error) {
	return a.s.StartBytes(name, data), nil
}

// PickFiles opens the native dialog to choose PDFs and the other files
// Vika reads (convert.Extensions); it returns no paths when the user
// cancels.
func (a *App) PickFiles() ([]string, error) {
	paths, err := runtime.OpenMultipleFilesDialog(a.ctx, runtime.OpenDialogOptions{
		Title: "Add documents",
		Filters: []runtime.FileFilter{{DisplayName: "Documents (PDF, slides, Word, EPUB, images)", Pattern: convert.Pattern()},
			{DisplayName: "PDF (*.pdf)", Pattern: "*.pdf;*.PDF"}},
	})
	if paths == nil {
		paths = []string{}
	}
	return paths, err
}

// Cancel stops a running add or description; it reports whether it was running.
func (a *App) Cancel(jobID string) (bool, error) { return a.s.Cancel(jobID), nil }

// Documents lists the documents of the session.
func (a *App) Documents() ([]corpus.Document, error) { return a.s.Documents(a.ctx) }

// RemoveDocument removes a document and its passages from the session.
func (a *App) RemoveDocument(docID string) error { return a.s.RemoveDocument(a.ctx, docID) }

// RechunkAll cuts every document into passages again with the chunk size
// and overlap of the saved settings, one after the other (its progress on
// the "library:rechunk" event); it returns how many it cut again.
func (a *App) RechunkAll() (int, error) { return a.s.RechunkAll(a.ctx) }

// Search returns the k passages that best match question in mode ("",
// "dense", "bm25" or "hybrid"), hybrid mode fusing as fusion says ("", the
// embedding model's profile, "convex" or "rrf"), reranked when rerank is
// set and a cross-encoder is installed, with how they were found: the
// explorer's chunk lookup, which needs no LLM. Dense mode without an
// embedding model fails with message.SearchDenseUnavailable.
func (a *App) Search(question, mode, fusion string, k int, rerank bool) (engine.SearchResult, error) {
	var m retrieve.Mode // "": the session's default mode
	if mode != "" {
		var err error
		if m, err = retrieve.ParseMode(mode); err != nil {
			return engine.SearchResult{}, err
		}
	}
	f, err := retrieve.ParseFusion(fusion)
	if err != nil {
		return engine.SearchResult{}, err
	}
	return a.s.Search(a.ctx, question, engine.SearchOptions{Mode: m, K: k, Rerank: rerank, Fusion: f})
}

// PageBatch is a run of a document's pages from Offset, bounded for one
// bridge reply (batch); Next is where the next run starts, Total when
// this one is the last.
type PageBatch struct {
	Pages []corpus.Page `json:"pages"`
	Next  int           `json:"next"`
	Total int           `json:"total"`
}

// ChunkBatch is a run of a document's passages, as PageBatch.
type ChunkBatch struct {
	Chunks []corpus.Chunk `json:"chunks"`
	Next   int            `json:"next"`
	Total  int            `json:"total"`
}

// Pages returns a document's extracted pages from offset, a bounded run
// at a time (for the explorer).
func (a *App) Pages(docID string, offset int) (PageBatch, error) {
	pages, err := a.s.Pages(a.ctx, docID)
	if err != nil {
		return PageBatch{}, err
	}
	run, next := batch(pages, offset, func(p corpus.Page) int { return len(p.Text) + 64*len(p.Lines) + 256*len(p.Regions) })
	return PageBatch{Pages: run, Next: next, Total: len(pages)}, nil
}

// Chunks returns a document's passages in reading order from offset, a
// bounded run at a time (for the explorer).
func (a *App) Chunks(docID string, offset int) (ChunkBatch, error) {
	chunks, err := a.s.Chunks(a.ctx, docID)
	if err != nil {
		return ChunkBatch{}, err
	}
	run, next := batch(chunks, offset, func(c corpus.Chunk) int { return len(c.Text) + 256 })
	return ChunkBatch{Chunks: run, Next: next, Total: len(chunks)}, nil
}

// Bounds of one bridge reply of Pages or Chunks: at most batchItems items
// and about batchBytes bytes (one item at least).
const (
	batchItems = 500
	batchBytes = 4 << 20
)

// batch is the run of items from offset within the bounds above, and the
// offset after it.
func batch[T any](items []T, offset int, size func(T) int) ([]T, int) {
	offset = min(max(offset, 0), len(items))
	end, bytes := offset, 0
	for end < len(items) && end-offset < batchItems {
		bytes += size(items[end])
		if bytes > batchBytes && end > offset {
			break
		}
		end++
	}
	return items[offset:end], end
}
