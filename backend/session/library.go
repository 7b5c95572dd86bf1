package session

import (
	"context"
	"fmt"
	"vika/backend/chunk"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/retrieve"
)

// StartFile starts adding the PDF at path and returns its job id; progress
// goes out as EventIngestProgress, and the document is described after
// it is added when the settings ask for it.
func (s *Session) StartFile(path string) string {
	return s.eng.StartFile(path, s.progress)
}

// StartBytes is StartFile for a file whose bytes came from the window.
func (s *Session) StartBytes(name string, data []byte) string {
	return s.eng.StartBytes(name, data, s.progress)
}

// Ingest adds the PDF at path and waits, reporting what was extracted
// (the command line's add); progress, when set, sees every step.
func (s *Session) Ingest(ctx context.Context, path string, progress func(engine.Progress)) (engine.Report, error) {
	r, err := s.eng.Ingest(ctx, path, progress)
	if err == nil {
		s.changed()
	}
	return r, err
}

// Cancel stops an add or a description; it reports whether it was running.
func (s *Session) Cancel(jobID string) bool { return s.eng.Cancel(jobID) }

// progress emits an add's step, applies the describe-after-add and
// summarise-after-add rules and counts a document added as a change
// (before its event goes out: whoever hears it sees the change).
func (s *Session) progress(p engine.Progress) {
	if p.Stage == engine.StageDone && p.Doc != nil {
		s.changed()
	}
	s.emitProgress(p)
}

// emitProgress emits an add's step and applies the describe-after-add
// and summarise-after-add rules.
func (s *Session) emitProgress(p engine.Progress) {
	s.emit(EventIngestProgress, p)
	s.describeAfterAdd(p)
	s.summarizeAfterAdd(p)
}

// Documents lists the session's documents.
func (s *Session) Documents(ctx context.Context) ([]corpus.Document, error) {
	return s.eng.Documents(ctx)
}

// RemoveDocument forgets a document and its passages.
func (s *Session) RemoveDocument(ctx context.Context, docID string) error {
	s.study.Forget(docID)
	s.reviews.Forget(docID)
	s.notes.Forget(docID)
	err := s.eng.RemoveDocument(ctx, docID)
	if err == nil {
		s.changed()
	}
	return err
}

// DocumentFile returns a document and its PDF bytes (for the viewer).
func (s *Session) DocumentFile(ctx context.Context, docID string) (corpus.Document, []byte, error) {
	return s.eng.DocumentFile(ctx, docID)
}

// Pages returns a document's extracted pages.
func (s *Session) Pages(ctx context.Context, docID string) ([]corpus.Page, error) {
	return s.eng.Pages(ctx, docID)
}

// Chunks returns a document's passages in reading order.
func (s *Session) Chunks(ctx context.Context, docID string) ([]corpus.Chunk, error) {
	return s.eng.Chunks(ctx, docID)
}

// Regions returns a document's tables, figures and formulas, with their
// images when withImages.
func (s *Session) Regions(ctx context.Context, docID string, withImages bool) ([]corpus.Region, error) {
	return s.eng.Regions(ctx, docID, withImages)
}

// RegionOf returns the region a region passage was made from.
func (s *Session) RegionOf(ctx context.Context, chunkID string) (corpus.Region, bool) {
	return s.eng.RegionOf(ctx, chunkID)
}

// CropOf locates the crop of the region a passage was made from
// (engine.CropOf).
func (s *Session) CropOf(ctx context.Context, chunkID string) (docID string, page, n int, ok bool) {
	return s.eng.CropOf(ctx, chunkID)
}

// CropAt returns the n-th crop of a document's page (engine.CropAt).
func (s *Session) CropAt(ctx context.Context, docID string, page, n int) ([]byte, error) {
	return s.eng.CropAt(ctx, docID, page, n)
}

// Search returns the passages that best match query, with how they were
// found (no model is asked).
func (s *Session) Search(ctx context.Context, query string, o engine.SearchOptions) (engine.SearchResult, error) {
	return s.eng.Search(ctx, retrieve.Query{Question: query}, o)
}

// DenseUnavailable says why dense search cannot run (nil when it can).
func (s *Session) DenseUnavailable() error { return s.eng.DenseUnavailable() }

// Reranker names the cross-encoder in use, or says why there is none.
func (s *Session) Reranker() (string, error) { return s.eng.Reranker() }

// NeedMode fails when mode needs the embedding model and it cannot be
// loaded (the command line's early check; "" lets the engine choose).
func (s *Session) NeedMode(mode retrieve.Mode) error {
	if (mode == retrieve.ModeDense || mode == retrieve.ModeHybrid) && s.eng.DenseUnavailable() != nil {
		return fmt.Errorf("%s search needs the embedding model: %w", mode, s.eng.DenseUnavailable())
	}
	return nil
}

// WaitVectors waits until every document added has its vectors (searches
// never need to: a document without them is found by BM25).
func (s *Session) WaitVectors(ctx context.Context) error { return s.eng.WaitVectors(ctx) }

// Rechunk cuts a document already added into passages again with the
// chunking of the settings in force (engine.Rechunk).
func (s *Session) Rechunk(ctx context.Context, docID string) (corpus.Document, error) {
	d, err := s.eng.Rechunk(ctx, docID)
	if err == nil {
		s.changed()
	}
	return d, err
}

// RechunkProgress is how far RechunkAll is: Done of Total documents cut
// again.
type RechunkProgress struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// RechunkAll cuts every document of the session into passages again with
// the chunking in force, one after the other, emitting EventRechunk with
// a RechunkProgress before the first and after each. It stops at the
// first failure, and returns how many were cut again.
func (s *Session) RechunkAll(ctx context.Context) (int, error) {
	docs, err := s.Documents(ctx)
	if err != nil {
		return 0, err
	}
	s.emit(EventRechunk, RechunkProgress{Total: len(docs)})
	for i, d := range docs {
		if _, err := s.Rechunk(ctx, d.ID); err != nil {
			return i, err
		}
		s.emit(EventRechunk, RechunkProgress{Done: i + 1, Total: len(docs)})
	}
	return len(docs), nil
}

// SetChunking sets how the documents added afterwards are cut into
// passages (the command line's --chunk-size and --chunk-overlap; the
// window's come from the settings).
func (s *Session) SetChunking(o chunk.Options) { s.eng.SetChunking(o) }
