//go:build tune

package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"vika/backend/embed"
	"vika/backend/eval"
	"vika/backend/models"
	"vika/backend/retrieve"
	"vika/backend/testpdf"
)

// TestCosineBands measures the cosines of the default embedding model
// between each of the 156 page questions (testdata/pdf_questions.jsonl)
// and every passage of its PDF, as a dense search scores them: the
// passages on the question's answer pages, the best of those per
// question, and the other passages (the background). It prints the
// quantiles of each, per split, with the share of each kind that every
// band of retrieve.BandsFor would colour. An experiment, not a check:
//
//	VIKA_EVAL_PAGES_CACHE=DIR go test -tags "tune webkit2_41" -run TestCosineBands -v ./backend/cli/
//
// VIKA_EMBED_MODEL_EN names the model measured, VIKA_BANDS_QUESTIONS
// another question set (the French student questions for a multilingual
// model: all of that set is its tune split).
func TestCosineBands(t *testing.T) {
	dir := filepath.Dir(testpdf.SharedPDF(t, "okasaki1996_purely_functional_data_structures_thesis.pdf"))
	questions := filepath.Join("..", "..", "testdata", "pdf_questions.jsonl")
	if p := os.Getenv("VIKA_BANDS_QUESTIONS"); p != "" {
		questions = p // e.g. ../shared/data/fr_questions/dev.jsonl, for a multilingual model
	}
	qs, err := eval.LoadPageQuestions(questions)
	if err != nil {
		t.Fatal(err)
	}
	c, err := models.Embedder(true)
	if err != nil {
		t.Fatalf("no embedding model installed (make assets installs USE-lite): %v", err)
	}
	emb, err := embed.Open(models.Root(), c)
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	ctx := context.Background()
	off := retrieve.PageRanking{}
	docs, err := loadPagesDocs(ctx, dir, os.Getenv("VIKA_EVAL_PAGES_CACHE"), nil, qs, emb, retrieve.Options{Pages: &off}, true, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, d := range docs {
			d.close()
		}
	}()
	type dist struct{ answer, best, background []float64 }
	bySplit := map[string]*dist{}
	for _, q := range qs {
		d := docs[q.File]
		res, err := d.r.Search(ctx, q.Question, retrieve.SearchOptions{Mode: retrieve.ModeDense, K: len(d.res.Chunks)})
		if err != nil {
			t.Fatal(err)
		}
		s := bySplit[q.Split]
		if s == nil {
			s = &dist{}
			bySplit[q.Split] = s
		}
		best := -2.0
		for _, h := range res.Hits {
			if h.DenseScore == nil {
				continue
			}
			cos := *h.DenseScore
			page := chunkPage(d, h.ChunkID)
			if slices.Contains(q.Pages, page) {
				s.answer = append(s.answer, cos)
				best = max(best, cos)
			} else {
				s.background = append(s.background, cos)
			}
		}
		if best > -2 {
			s.best = append(s.best, best)
		}
	}
	b := retrieve.BandsFor(emb.Name())
	t.Logf("model %s, bands: high >= %.2f, fair >= %.2f", emb.Name(), b.High, b.Fair)
	for _, split := range []string{"tune", "test"} {
		s := bySplit[split]
		if s == nil {
			continue
		}
		for _, k := range []struct {
			name string
			v    []float64
		}{{"answer-page passages", s.answer}, {"best answer passage", s.best}, {"background passages", s.background}} {
			slices.Sort(k.v)
			t.Logf("BANDS %s %-22s n=%6d  p10 %.3f p25 %.3f p50 %.3f p75 %.3f p90 %.3f p95 %.3f p99 %.3f | high %.2f fair %.2f low %.2f",
				split, k.name, len(k.v), quantile(k.v, .10), quantile(k.v, .25), quantile(k.v, .50), quantile(k.v, .75),
				quantile(k.v, .90), quantile(k.v, .95), quantile(k.v, .99), share(k.v, b.High, 2), share(k.v, b.Fair, b.High), share(k.v, -2, b.Fair))
		}
	}
}

func chunkPage(d *pagesDoc, id string) int {
	for _, c := range d.res.Chunks {
		if c.ID == id {
			return c.Page
		}
	}
	panic(fmt.Sprintf("no chunk %s", id))
}

// quantile is the q-quantile of sorted v (nearest rank).
func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	return v[min(len(v)-1, int(q*float64(len(v))))]
}

// share is the share of v in [lo, hi).
func share(v []float64, lo, hi float64) float64 {
	n := 0
	for _, x := range v {
		if x >= lo && x < hi {
			n++
		}
	}
	return float64(n) / float64(max(1, len(v)))
}
