package engine

import (
	"context"
	"testing"

	"vika/backend/corpus"
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
