// Package ingest turns the bytes of one PDF into a document, its pages and
// its chunks: validate, extract each page's text, chunk. It reports
// progress through a callback and checks for cancellation between pages.
// It does not store or index anything (the engine does).
package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"vika/backend/chunk"
	"vika/backend/corpus"
	"vika/backend/pdf"
)

// Stages reported in Progress.Stage.
const (
	StageValidating = "validating"
	StageExtracting = "extracting"
	StageChunking   = "chunking"
)

// Progress reports how far Run has got. During extraction Done counts
// the pages read out of Total.
type Progress struct {
	Stage string
	Done  int
	Total int
}

// Options configures Run.
type Options struct {
	Limits pdf.Limits
	Chunk  chunk.Options
}

// Result is a processed document. Doc.Label is the file name; callers that
// need unique labels set it.
type Result struct {
	Doc    corpus.Document
	Pages  []corpus.Page
	Chunks []corpus.Chunk
}

// DocID returns the document id of data: its SHA-256, in hex.
func DocID(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Run processes one PDF named name. progress may be nil; it is called from
// the calling goroutine. Errors from the pdf package (pdf.ErrNotPDF, ...)
// are returned wrapped; if ctx is cancelled Run returns ctx.Err().
func Run(ctx context.Context, name string, data []byte, opts Options, progress func(Progress)) (Result, error) {
	report := func(stage string, done, total int) {
		if progress != nil {
			progress(Progress{Stage: stage, Done: done, Total: total})
		}
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	report(StageValidating, 0, 0)
	id := DocID(data)
	doc, err := pdf.Open(data, opts.Limits)
	if err != nil {
		return Result{}, err
	}
	defer doc.Close()

	n := doc.NumPages()
	pages := make([]corpus.Page, 0, n)
	var failed []int
	report(StageExtracting, 0, n)
	for i := 1; i <= n; i++ {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		p, err := doc.Page(i)
		page := p.Corpus(id)
		if err != nil {
			page.Error = err.Error()
			failed = append(failed, i)
		}
		pages = append(pages, page)
		report(StageExtracting, i, n)
	}
	if len(failed) == n {
		return Result{}, fmt.Errorf("%w: none of its %d pages can be read", pdf.ErrCorrupt, n)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}

	report(StageChunking, 0, 0)
	d := corpus.Document{ID: id, File: name, Label: name, Bytes: int64(len(data)), Pages: n, FailedPages: failed}
	chunks := chunk.Split(d, pages, opts.Chunk)
	d.Chunks = len(chunks)
	return Result{Doc: d, Pages: pages, Chunks: chunks}, nil
}
