//go:build tune

package index

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"vika/backend/eval"
	"vika/backend/eval/evaltest"
)

// This file holds the measurements behind the BM25 parameters: sweeps on
// BEIR SciFact that choose on train and report test. They are experiments,
// not checks: built only with the tag "tune" (`make test` only compiles
// them), and they need ../shared/data.

// TestTuneBM25 prints SciFact nDCG@10 of BM25 over a grid of analyzers,
// k1 and b, on train (tuning) and test (report). It takes about a minute:
// go test -tags tune -run TuneBM25 -v ./backend/index. (A third axis,
// the true mean chunk length instead of bleve's estimate, was measured
// with this sweep and dropped: see the package doc.)
func TestTuneBM25(t *testing.T) {
	train, test := evaltest.SciFact(t, "train"), evaltest.SciFact(t, "test")
	customAnalyzers["en_snowball"] = map[string]any{
		"type": "custom", "tokenizer": unicode.Name,
		"token_filters": []any{en.PossessiveName, lowercase.Name, en.StopName, en.SnowballStemmerName},
	}
	defer delete(customAnalyzers, "en_snowball")
	defer func(k1, b float64, an string) {
		bsearch.BM25_k1, bsearch.BM25_b, analyzers["en"] = k1, b, an
	}(K1, B, analyzers["en"])

	for _, an := range []string{en.AnalyzerName, "en_snowball"} {
		analyzers["en"] = an
		l, err := NewLexical()
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Add(context.Background(), eval.Chunks(train.Corpus)); err != nil {
			t.Fatal(err)
		}
		for _, k1 := range []float64{0.6, 0.9, 1.2, 1.5} {
			for _, b := range []float64{0.3, 0.4, 0.5, 0.6, 0.75, 0.9} {
				bsearch.BM25_k1, bsearch.BM25_b = k1, b
				tr := eval.Evaluate(bm25Run(t, l, train.Queries), train.Qrels)
				te := eval.Evaluate(bm25Run(t, l, test.Queries), test.Qrels)
				fmt.Printf("TUNE analyzer=%s k1=%.1f b=%.2f train ndcg=%.4f r100=%.4f | test ndcg=%.4f r100=%.4f mrr=%.4f\n",
					an, k1, b, tr.NDCG10, tr.Recall100, te.NDCG10, te.Recall100, te.MRR10)
			}
		}
		l.Close()
	}
}

// rm3 is an RM3 query expansion run on bleve: the first pass's top docs
// give a relevance model p(t|R) = sum_d score(d)/Z * tf(t,d)/|d| over
// their analysed terms; the expanded query weighs the top terms of
// lambda*p(t|q) + (1-lambda)*p(t|R) as boosts of term queries.
func rm3(t testing.TB, l *Lexical, texts map[string]string, q string, docs, terms int, lambda float64, k int) []Scored {
	ctx := context.Background()
	first, err := l.Search(ctx, q, docs)
	if err != nil {
		t.Fatal(err)
	}
	s := l.shards[Analyzer("en")]
	an := s.idx.Mapping().AnalyzerNamed(s.analyzer)
	dist := func(text string) map[string]float64 {
		toks := an.Analyze([]byte(text))
		m := map[string]float64{}
		for _, tok := range toks {
			m[string(tok.Term)] += 1 / float64(len(toks))
		}
		return m
	}
	var z float64
	for _, h := range first {
		z += h.Score
	}
	rel := map[string]float64{}
	for _, h := range first {
		for term, p := range dist(texts[h.ChunkID]) {
			rel[term] += h.Score / z * p
		}
	}
	type tw struct {
		term string
		w    float64
	}
	var top []tw
	for term, w := range rel {
		top = append(top, tw{term, w})
	}
	slices.SortFunc(top, func(a, b tw) int { return cmp.Compare(b.w, a.w) })
	top = top[:min(terms, len(top))]
	var norm float64
	for _, x := range top {
		norm += x.w
	}
	weights := map[string]float64{}
	for term, p := range dist(q) {
		weights[term] += lambda * p
	}
	for _, x := range top {
		weights[x.term] += (1 - lambda) * x.w / norm
	}
	var qs []query.Query
	for term, w := range weights {
		tq := query.NewTermQuery(term)
		tq.SetField(fieldText)
		tq.SetBoost(w)
		qs = append(qs, tq)
	}
	req := bleve.NewSearchRequestOptions(query.NewDisjunctionQuery(qs), k, 0, false)
	res, err := s.idx.SearchInContext(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	var out []Scored
	for _, h := range res.Hits {
		out = append(out, Scored{h.ID, h.Score})
	}
	return out
}

// TestTuneRM3 measures RM3 expansion of BM25 queries on SciFact.
func TestTuneRM3(t *testing.T) {
	train, test := evaltest.SciFact(t, "train"), evaltest.SciFact(t, "test")
	l, err := NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	chunks := eval.Chunks(train.Corpus)
	if err := l.Add(context.Background(), chunks); err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	for _, c := range chunks {
		texts[c.ID] = c.Text
	}
	for _, docs := range []int{3, 5, 10} {
		for _, terms := range []int{10, 20, 40} {
			for _, lambda := range []float64{0.5, 0.7, 0.8, 0.9} {
				var ms []eval.Metrics
				for _, ds := range []*eval.Dataset{train, test} {
					run := eval.Run{}
					for _, q := range ds.Queries {
						for _, h := range rm3(t, l, texts, q.Text, docs, terms, lambda, 100) {
							run[q.ID] = append(run[q.ID], h.ChunkID)
						}
					}
					ms = append(ms, eval.Evaluate(run, ds.Qrels))
				}
				fmt.Printf("TUNE rm3 docs=%d terms=%d lambda=%.1f | train ndcg=%.4f r100=%.4f | test ndcg=%.4f r100=%.4f mrr=%.4f\n",
					docs, terms, lambda, ms[0].NDCG10, ms[0].Recall100, ms[1].NDCG10, ms[1].Recall100, ms[1].MRR10)
			}
		}
	}
}
