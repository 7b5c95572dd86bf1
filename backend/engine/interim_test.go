package engine

import (
	"context"
	"errors"
	"testing"
	"time"

	"vika/backend/message"
	"vika/backend/retrieve"
	"vika/backend/testpdf/scanned"
)

// coursePack is a text page and two scanned pages, each with its own words.
func coursePack(t *testing.T) []byte {
	return scanned.Course(t, "The syllabus of the course is on this first page.", "Markov chains forget their start.", "Martingales keep their mean.")
}

// pagesFound returns the pages of the hits for q, searched by BM25.
func pagesFound(t *testing.T, e *Engine, q string) []int {
	t.Helper()
	res, err := e.Search(context.Background(), retrieve.Query{Question: q}, SearchOptions{Mode: retrieve.ModeBM25, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, h := range res.Hits {
		out = append(out, h.Page)
	}
	return out
}

// While its scanned pages are OCRed, a document is listed and searchable
// by the words of the pages read so far, with the pages still to read;
// each step replaces the last, and the whole document ends it. What needs
// its whole text waits for it (ErrStillReading).
func TestSearchableWhileOCR(t *testing.T) {
	e := newEngine(t, Config{})
	e.opts.InterimEvery, e.opts.OCRParallel = time.Nanosecond, 1
	type seen struct {
		reading, listed      int
		syllabus, martingale []int
		embedding            bool
	}
	var steps []seen
	rep, err := e.add(context.Background(), "", "course.pdf", coursePack(t), func(p Progress) {
		if p.Stage != StageSearchable {
			return
		}
		docs, err := e.Documents(context.Background())
		if err != nil || len(docs) != 1 {
			t.Fatalf("listing while reading: %v, %v", docs, err)
		}
		if p.Doc.Reading > 0 {
			_, err := e.Rechunk(context.Background(), p.Doc.ID)
			_, _, err2 := e.SummaryTargets(context.Background(), p.Doc.ID, SummarizeOptions{})
			_, err3 := e.Describe(context.Background(), p.Doc.ID, nil, DescribeOptions{})
			for _, err := range []error{err, err2, err3} {
				if !errors.Is(err, ErrStillReading) || message.Of(err).Code != message.StillReading {
					t.Errorf("re-chunk, summarise or describe while reading: %v", err)
				}
			}
		}
		steps = append(steps, seen{p.Doc.Reading, docs[0].Reading, pagesFound(t, e, "syllabus"), pagesFound(t, e, "martingales"), docs[0].Embedding})
	})
	if err != nil {
		t.Fatal(err)
	}
	// The text layer, then page 2 read, then the whole document.
	if len(steps) != 3 {
		t.Fatalf("searchable %d times: %+v", len(steps), steps)
	}
	for i, s := range steps {
		want := 2 - i
		if s.reading != want || s.listed != want || !s.embedding || len(s.syllabus) != 1 || s.syllabus[0] != 1 {
			t.Errorf("step %d: %+v, want %d pages reading, page 1 found, embedding", i, s, want)
		}
		if found := len(s.martingale) > 0; found != (i == 2) {
			t.Errorf("step %d: martingales found on %v", i, s.martingale)
		}
	}
	if rep.Doc.Reading != 0 || rep.Doc.OCRPages != 2 || rep.Doc.Embedding {
		t.Errorf("report %+v", rep.Doc)
	}
	docs, _ := e.Documents(context.Background())
	if len(docs) != 1 || docs[0].Reading != 0 || docs[0].Chunks != rep.Doc.Chunks || docs[0].Label != "course.pdf" {
		t.Errorf("listed after: %+v", docs)
	}
	if got := pagesFound(t, e, "markov chains"); len(got) != 1 || got[0] != 2 {
		t.Errorf("markov chains found on %v", got)
	}
}

// A document removed while it is read stops its add, which leaves
// nothing; one cancelled while it is read leaves nothing either.
func TestRemovedWhileOCR(t *testing.T) {
	e := newEngine(t, Config{NoEmbeddings: true})
	e.opts.InterimEvery, e.opts.OCRParallel = time.Nanosecond, 1
	ctx := context.Background()
	_, err := e.add(ctx, "", "course.pdf", coursePack(t), func(p Progress) {
		if p.Stage == StageSearchable && p.Doc.Reading == 1 {
			if err := e.RemoveDocument(ctx, p.Doc.ID); err != nil {
				t.Errorf("remove: %v", err)
			}
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("add of a document removed while read: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	_, err = e.add(cctx, "", "course.pdf", coursePack(t), func(p Progress) {
		if p.Stage == StageSearchable {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("add cancelled while read: %v", err)
	}
	docs, _ := e.Documents(ctx)
	if len(docs) != 0 || len(e.reading) != 0 || len(e.embeddingDocs()) != 0 || len(pagesFound(t, e, "syllabus")) != 0 {
		t.Errorf("left behind: %+v, reading %v, embedding %v", docs, e.reading, e.embeddingDocs())
	}
	// The same bytes can be added again.
	if d := mustAdd(t, e, "course.pdf", coursePack(t)); d.Reading != 0 || d.OCRPages != 2 {
		t.Errorf("added again: %+v", d)
	}
}
