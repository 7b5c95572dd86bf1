package engine

import (
	"context"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/retrieve"
	"vika/backend/testpdf"
)

// TestScopeKeepsToBERT: in a session holding BERT and three other shared
// papers, questions about the other papers scoped to BERT retrieve BERT
// passages only, in every mode; unscoped, the same questions do find the
// other papers (so the check can fail); and a page range keeps its pages.
func TestScopeKeepsToBERT(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{})
	files := []string{"devlin2019_bert.pdf", "vaswani2017_attention_is_all_you_need.pdf", "he2015_resnet.pdf", "shannon1948_mathematical_theory_of_communication.pdf"}
	var bert corpus.Document
	for _, f := range files {
		d, err := docOf(e.Ingest(ctx, testpdf.SharedPDF(t, f), nil))
		if err != nil {
			t.Fatal(err)
		}
		if f == files[0] {
			bert = d
		}
	}
	questions := []string{
		"multi-head attention with scaled dot-product and sinusoidal positional encoding",
		"deep residual learning with identity shortcut connections on ImageNet",
		"entropy of a discrete information source and the capacity of a noisy channel",
		"masked language model pre-training",
	}
	modes := []retrieve.Mode{retrieve.ModeBM25}
	if e.DenseUnavailable() == nil {
		modes = append(modes, retrieve.ModeDense, retrieve.ModeHybrid)
	} else {
		t.Logf("dense and hybrid modes not checked: %v", e.DenseUnavailable())
	}
	elsewhere := 0
	for _, m := range modes {
		for _, q := range questions {
			for _, sc := range []corpus.Scope{{Docs: []string{bert.ID}}, {Docs: []string{bert.ID}, From: 3, To: 5}} {
				res, err := e.Search(ctx, retrieve.Query{Question: q}, SearchOptions{Mode: m, K: 20, Rerank: true, Scope: sc})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Hits) == 0 {
					t.Errorf("%s %q scoped %+v: no hit", m, q, sc)
				}
				for _, h := range res.Hits {
					if !sc.Keeps(h.DocID, h.Page) {
						t.Errorf("%s %q scoped to BERT %d-%d: got %s", m, q, sc.From, sc.To, h.Label)
					}
				}
			}
			res, err := e.Search(ctx, retrieve.Query{Question: q}, SearchOptions{Mode: m, K: 20, Rerank: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range res.Hits {
				if h.DocID != bert.ID {
					elsewhere++
				}
			}
		}
	}
	if elsewhere == 0 {
		t.Error("unscoped, no question found a passage outside BERT: the check above proves nothing")
	}
}

// TestScopeSection: a question scoped to a section of Vaswani's outline
// (named in another case and spacing) retrieves only that section's pages
// of Vaswani, with BERT and ResNet in the session; the same question
// unscoped finds pages outside it (so the check can fail); a title no
// outline holds is a coded error, not an unscoped search.
func TestScopeSection(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{})
	var vaswani corpus.Document
	for _, f := range []string{"vaswani2017_attention_is_all_you_need.pdf", "devlin2019_bert.pdf", "he2015_resnet.pdf"} {
		d, err := docOf(e.Ingest(ctx, testpdf.SharedPDF(t, f), nil))
		if err != nil {
			t.Fatal(err)
		}
		if vaswani.ID == "" {
			vaswani = d
		}
	}
	var title string
	var from, to int
	for _, o := range vaswani.Outline {
		if f, l, _, ok := vaswani.SectionPages(o.Title); ok && o.Depth == 0 && l < vaswani.Pages && f > 1 {
			title, from, to = o.Title, f, l
			break
		}
	}
	if title == "" {
		t.Fatalf("Vaswani's outline %+v has no top-level section inside the paper", vaswani.Outline)
	}
	t.Logf("section %q: pages %d-%d of %d", title, from, to, vaswani.Pages)
	asked := corpus.Scope{Section: "  " + strings.ToUpper(title) + " "}
	q := retrieve.Query{Question: "attention layers training results on translation and the encoder decoder stacks"}
	outside := 0
	for _, m := range []retrieve.Mode{retrieve.ModeBM25, retrieve.ModeHybrid} {
		if m != retrieve.ModeBM25 && e.DenseUnavailable() != nil {
			t.Logf("%s not checked: %v", m, e.DenseUnavailable())
			continue
		}
		res, err := e.Search(ctx, q, SearchOptions{Mode: m, K: 20, Scope: asked})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 {
			t.Errorf("%s scoped to %q: no hit", m, title)
		}
		for _, h := range res.Hits {
			if h.DocID != vaswani.ID || h.Page < from || h.Page > to {
				t.Errorf("%s scoped to %q (p.%d-%d): got %s", m, title, from, to, h.Label)
			}
		}
		all, err := e.Search(ctx, q, SearchOptions{Mode: m, K: 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range all.Hits {
			if h.DocID != vaswani.ID || h.Page < from || h.Page > to {
				outside++
			}
		}
	}
	if outside == 0 {
		t.Error("unscoped, every hit was in the section: the check above proves nothing")
	}
	_, err := e.Search(ctx, q, SearchOptions{Mode: retrieve.ModeBM25, K: 5, Scope: corpus.Scope{Section: "Chapter 99 of nothing"}})
	if message.Of(err).Code != message.ScopeUnknownSection {
		t.Errorf("unknown section: %v (code %q), want %s", err, message.Of(err).Code, message.ScopeUnknownSection)
	}
}
