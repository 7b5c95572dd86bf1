package engine

import (
	"context"
	"errors"
	"fmt"
	"log"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/message"
)

// A document whose pages need OCR is searchable by the words of the pages
// read so far: ingest gives the add interim results while the OCR runs
// (ingest.Options.Interim), the first is stored as commitText stores a
// whole document, each later one and the whole document replace it
// (replaceText). Vectors are computed once, for the whole document.

// interimCommits stores an add's interim results. Its methods run on the
// add's goroutine (ingest calls Interim from Run's).
type interimCommits struct {
	e        *Engine
	data     []byte
	doc      *corpus.Document // as stored by the last commit; nil before the first
	cancel   context.CancelFunc
	progress func(corpus.Document)
}

// commit stores r, the document read so far. A failure is logged and
// leaves what was stored: the whole document is committed at the end
// anyway. A document removed meanwhile ends the add (cancel).
func (c *interimCommits) commit(ctx context.Context, r ingest.Result) {
	var doc corpus.Document
	var err error
	if c.doc == nil {
		doc, err = c.e.commitText(ctx, r, c.data)
	} else {
		doc, err = c.e.replaceText(ctx, *c.doc, r)
	}
	switch {
	case errors.Is(err, corpus.ErrNotFound):
		c.cancel() // removed while it was read: the add stops (and its undo clears its marks)
		return
	case err != nil:
		if ctx.Err() == nil {
			log.Printf("add %s: keeping it searchable while it is read: %v", r.Doc.File, err)
		}
		return
	}
	c.doc = &doc
	if c.progress != nil {
		c.progress(doc)
	}
}

// replaceText replaces the text (pages, passages, BM25 and page indexes)
// of prev, a document stored while it was being read, with res: the same
// document read further. It keeps prev's label, and the document stays
// marked as waiting for its vectors. It fails with corpus.ErrNotFound when the
// document was removed meanwhile.
func (e *Engine) replaceText(ctx context.Context, prev corpus.Document, res ingest.Result) (corpus.Document, error) {
	e.commitMu.Lock()
	defer e.commitMu.Unlock()
	if err := ctx.Err(); err != nil {
		return corpus.Document{}, err
	}
	doc := res.Doc
	doc.Label = prev.Label
	if err := e.store.ReplaceText(ctx, doc, res.Pages, res.Chunks); err != nil {
		return corpus.Document{}, err
	}
	ret := e.models.Load().ret // stays in force while commitMu is held
	// The store holds the new text already: an index that fails here is
	// made to agree with it by the next step (which deletes and adds
	// again) or, when this is the last, by the add's undo.
	if err := ret.DeleteDoc(ctx, doc.ID); err != nil {
		return corpus.Document{}, fmt.Errorf("replace %s: %w", doc.Label, err)
	}
	if err := ret.AddText(ctx, res.Chunks); err != nil {
		return corpus.Document{}, fmt.Errorf("replace %s: %w", doc.Label, err)
	}
	e.setReading(doc.ID, doc.Reading)
	doc.Embedding = true
	return doc, nil
}

// ErrStillReading is the error of what needs a document's whole text
// (describing its figures, summarising or re-chunking its passages) while
// its OCR still runs: the next interim step would replace the passages
// it made.
var ErrStillReading = errors.New("the document is still being read")

// checkRead fails with ErrStillReading while document id's OCR runs.
func (e *Engine) checkRead(ctx context.Context, id string) error {
	e.mu.Lock()
	reading := e.reading[id] > 0
	e.mu.Unlock()
	if !reading {
		return nil
	}
	label := id
	if d, err := e.store.DocumentByID(ctx, id); err == nil {
		label = d.Label
	}
	return message.Wrap(fmt.Errorf("%w: %s (OCR of its scanned pages)", ErrStillReading, label), message.StillReading, "label", label)
}

// setReading records the pages of document id still to be read (0:
// none, the document is whole).
func (e *Engine) setReading(id string, pages int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if pages > 0 {
		e.reading[id] = pages
	} else {
		delete(e.reading, id)
	}
}
