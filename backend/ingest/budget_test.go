package ingest

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/testpdf"
)

// TestTextBudget: twelve pages drawing one shared form of 50,000
// characters are read under budgets of 20,000 characters a page and
// 100,000 a document: each page kept is cut to 20,000, pages 6 to 12 are
// not read (marked), and the document is added with a coded warning.
func TestTextBudget(t *testing.T) {
	data := testpdf.SharedText(12, 50_000)
	res, err := Run(context.Background(), "shared.pdf", data, Options{Budget: Budget{PageChars: 20_000, DocChars: 100_000}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Pages {
		n := utf8.RuneCountInString(p.Text)
		switch {
		case p.Number <= 5 && (p.Failed() || n != 20_000):
			t.Errorf("page %d: %d characters, problem %+v", p.Number, n, p.Problem)
		case p.Number > 5 && (p.Problem == nil || p.Problem.Code != message.PageOverBudget || n != 0):
			t.Errorf("page %d: %d characters, problem %+v, want not read", p.Number, n, p.Problem)
		}
	}
	if w := res.Doc.Warning; w == nil || w.Code != message.TextBudget || w.Params["pages"] != 5 {
		t.Errorf("warning %+v", w)
	}
	total := 0
	for _, c := range res.Chunks {
		total += c.CharEnd - c.CharStart
	}
	if total > 100_000 {
		t.Errorf("the chunks hold %d characters, over the document's budget", total)
	}
}

// TestTextBudgetDefaults: a page of the shared form within the default
// budgets keeps all its text and gets no warning.
func TestTextBudgetDefaults(t *testing.T) {
	res, err := Run(context.Background(), "shared.pdf", testpdf.SharedText(2, 50_000), Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Doc.Warning != nil || utf8.RuneCountInString(res.Pages[0].Text) < 49_000 {
		t.Errorf("warning %+v, %d characters", res.Doc.Warning, utf8.RuneCountInString(res.Pages[0].Text))
	}
}

// TestWithinBudget holds processed data from outside the worker (a course
// file's, the cache's) to an ingest's budgets.
func TestWithinBudget(t *testing.T) {
	page := func(n, chars, regions int) corpus.Page {
		return corpus.Page{Number: n, Text: strings.Repeat("a", chars), Regions: make([]corpus.Region, regions)}
	}
	pages := func(n, chars int) []corpus.Page {
		out := make([]corpus.Page, n)
		for i := range out {
			out[i] = page(i+1, chars, 0)
		}
		return out
	}
	chunks := func(n, chars int) []corpus.Chunk {
		out := make([]corpus.Chunk, n)
		for i := range out {
			out[i] = corpus.Chunk{Page: 1, Text: strings.Repeat("b", chars)}
		}
		return out
	}
	for _, c := range []struct {
		name     string
		pages    []corpus.Page
		chunks   []corpus.Chunk
		maxPages int
		want     bool
	}{
		{"a real document", pages(12, 3000), chunks(40, 1500), 3000, true},
		{"more pages than the limit", pages(11, 10), nil, 10, false},
		{"no page limit", pages(11, 10), nil, 0, true},
		{"a page over its characters", []corpus.Page{page(1, MaxPageChars+1, 0)}, nil, 0, false},
		{"a page of too many regions", []corpus.Page{page(1, 10, MaxPageRegions+1)}, nil, 0, false},
		{"the document over its characters", pages(MaxDocChars/MaxPageChars+1, MaxPageChars), nil, 0, false},
		{"passages over their share", pages(1, 10), chunks(chunkShare*MaxDocChars/1_000_000+1, 1_000_000), 0, false},
	} {
		if got := WithinBudget(c.pages, c.chunks, c.maxPages); got != c.want {
			t.Errorf("%s: WithinBudget = %v, want %v", c.name, got, c.want)
		}
	}
}
