package ingest

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"vika/backend/corpus"
	"vika/backend/testpdf/scanned"
)

const syllabus = "The syllabus of the course is on this first page."

// pagesWith lists the pages that have passages.
func pagesWith(chunks []corpus.Chunk) []int {
	var out []int
	for _, c := range chunks {
		if len(out) == 0 || out[len(out)-1] != c.Page {
			out = append(out, c.Page)
		}
	}
	return out
}

// While a document's pages are OCRed, Interim gets it as read so far:
// its text layer when the OCR begins (three pages, one at a time), then
// one scanned page more each time (the outcomes merged in page order),
// with the pages still to read; the whole document Run returns is the one
// a run without Interim makes.
func TestInterimWhileOCR(t *testing.T) {
	data := scanned.Course(t, syllabus, "Markov chains forget their start.", "Martingales keep their mean.", "Brownian motion has no memory.")
	pool := newPool(t)
	var got []Result
	// One page at a time, so that each is merged on its own (with two, the
	// second may land first and wait for the first: both come at once).
	opts := Options{OCR: pool, OCRParallel: 1, InterimEvery: time.Nanosecond, Interim: func(r Result) { got = append(got, r) }}
	res, err := Run(context.Background(), "course.pdf", data, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 { // the text layer, then after pages 2 and 3 (page 4 ends the OCR: Run's result)
		t.Fatalf("%d interim results, want 3: %+v", len(got), got)
	}
	for i, r := range got {
		if want := 3 - i; r.Doc.Reading != want || r.Doc.OCRPages != i {
			t.Errorf("interim %d: reading %d, OCR pages %d; want %d and %d", i, r.Doc.Reading, r.Doc.OCRPages, want, i)
		}
		if want := []int{1, 2, 3}[:i+1]; !reflect.DeepEqual(pagesWith(r.Chunks), want) {
			t.Errorf("interim %d: passages on pages %v, want %v", i, pagesWith(r.Chunks), want)
		}
		if r.Doc.Chunks != len(r.Chunks) || len(r.Pages) != 4 || len(r.Doc.FailedPages) != 0 {
			t.Errorf("interim %d: doc %+v with %d passages, %d pages", i, r.Doc, len(r.Chunks), len(r.Pages))
		}
	}
	if !strings.Contains(strings.ToLower(got[2].Pages[2].Text), "martingales") || got[2].Pages[3].Text != "" {
		t.Errorf("interim 2: page 3 %q, page 4 %q", got[2].Pages[2].Text, got[2].Pages[3].Text)
	}
	if res.Doc.Reading != 0 || res.Doc.OCRPages != 3 || !reflect.DeepEqual(pagesWith(res.Chunks), []int{1, 2, 3, 4}) {
		t.Errorf("whole document %+v, passages on pages %v", res.Doc, pagesWith(res.Chunks))
	}
	plain, err := Run(context.Background(), "course.pdf", data, Options{OCR: pool}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(plain.Doc, res.Doc) || !reflect.DeepEqual(plain.Chunks, res.Chunks) || !reflect.DeepEqual(plain.Pages, res.Pages) {
		t.Errorf("with Interim the document differs:\n%+v\nwithout:\n%+v", res.Doc, plain.Doc)
	}
}

// An OCR of one round of calls shorter than InterimEvery (here the
// default) gives no interim result: the document comes whole.
func TestInterimOnlyWhenOCRTakes(t *testing.T) {
	var got []Result
	opts := Options{OCR: newPool(t), Interim: func(r Result) { got = append(got, r) }}
	if _, err := Run(context.Background(), "course.pdf", scanned.Course(t, syllabus, "Markov chains forget their start."), opts, nil); err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("interim results %+v, want none", got)
	}
}
