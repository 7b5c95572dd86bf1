package ingest

import (
	"context"
	"testing"
	"unicode/utf8"

	"vika/backend/message"
	"vika/backend/testpdf"
)

// TestTextBudget: twelve pages drawing one shared form of 50,000
// characters are read under budgets of 20,000 characters a page and
// 100,000 a document: each page kept is cut to 20,000, pages 6 to 12 are
// not read (marked), and the document is added with a coded warning.
func TestTextBudget(t *testing.T) {
	data := testpdf.SharedText(12, 50_000)
	res, err := Run(context.Background(), "shared.pdf", data, Options{Text: TextLimits{PageChars: 20_000, DocChars: 100_000}}, nil)
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
