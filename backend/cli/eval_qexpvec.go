package cli

// Experiment (issue 16, fifth round): expansion of absent or rare query
// words by their nearest words of the document's own vocabulary, by
// USE-lite cosine of the single words. Configured by QEXPV. Not for shipping.

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"

	"vika/backend/corpus"
	"vika/backend/embed"
	"vika/backend/index"
)

type vecExpander struct {
	emb     embed.Embedder
	words   []string
	stems   []string
	vecs    [][]float32
	analyze func(string) []string
	rare    float64
	k       int
	minCos  float64
	boost   float64
	log     bool
}

func qexpWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}

// qexpVec returns the expander QEXPV asks for over chunks, or nil.
func qexpVec(ctx context.Context, emb embed.Embedder, chunks []corpus.Chunk) index.Expander {
	spec := os.Getenv("QEXPV")
	if spec == "" || emb == nil {
		return nil
	}
	kv := map[string]float64{}
	for _, f := range strings.Split(spec, ";") {
		k, v, _ := strings.Cut(f, "=")
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			panic(fmt.Sprintf("QEXPV %s: %v", k, err))
		}
		kv[k] = x
	}
	a := bleve.NewIndexMapping().AnalyzerNamed(en.AnalyzerName)
	e := &vecExpander{emb: emb, rare: kv["rare"], k: int(kv["k"]), minCos: kv["cos"], boost: kv["w"], log: kv["log"] == 1,
		analyze: func(w string) []string {
			var out []string
			for _, t := range a.Analyze([]byte(w)) {
				out = append(out, string(t.Term))
			}
			return out
		}}
	seen := map[string]bool{}
	for _, c := range chunks {
		if index.Analyzer(c.Lang) != en.AnalyzerName {
			continue
		}
		for _, w := range qexpWords(c.Text) {
			if len([]rune(w)) < 3 || seen[w] {
				continue
			}
			seen[w] = true
			st := e.analyze(w)
			if len(st) != 1 {
				continue
			}
			e.words = append(e.words, w)
			e.stems = append(e.stems, st[0])
		}
	}
	start := time.Now()
	for i := 0; i < len(e.words); i += 256 {
		vs, err := emb.Embed(ctx, e.words[i:min(i+256, len(e.words))])
		if err != nil {
			panic(err)
		}
		e.vecs = append(e.vecs, vs...)
	}
	fmt.Fprintf(os.Stderr, "qexpv: %d words embedded in %v\n", len(e.words), time.Since(start).Round(time.Millisecond))
	return e
}

func (e *vecExpander) Expand(analyzer, q string, terms []string, df func(string) int, docs int) []index.Boosted {
	if analyzer != en.AnalyzerName || docs == 0 {
		return nil
	}
	in := map[string]bool{}
	for _, t := range terms {
		in[t] = true
	}
	var out []index.Boosted
	for _, w := range qexpWords(q) {
		st := e.analyze(w)
		if len(st) != 1 || len([]rune(w)) < 3 {
			continue
		}
		if float64(df(st[0]))/float64(docs) > e.rare {
			continue
		}
		qv, err := e.emb.Embed(context.Background(), []string{w})
		if err != nil {
			panic(err)
		}
		type nb struct {
			i   int
			cos float64
		}
		var nbs []nb
		for i, v := range e.vecs {
			if c := cos(qv[0], v); c >= e.minCos {
				nbs = append(nbs, nb{i, c})
			}
		}
		slices.SortFunc(nbs, func(a, b nb) int { return -compareF(a.cos, b.cos) })
		n := 0
		var added []string
		for _, x := range nbs {
			if n >= e.k {
				break
			}
			s := e.stems[x.i]
			if in[s] || df(s) == 0 {
				continue
			}
			in[s] = true
			n++
			out = append(out, index.Boosted{Term: s, Boost: e.boost, For: st[0]})
			added = append(added, fmt.Sprintf("%s(%.2f)", e.words[x.i], x.cos))
		}
		if e.log && len(added) > 0 {
			fmt.Fprintf(os.Stderr, "qexpv %s -> %v\n", w, added)
		}
	}
	return out
}

func compareF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cos(a, b []float32) float64 {
	var d, na, nb float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return d / math.Sqrt(na*nb)
}

// senseFilter keeps the WordNet expansions whose words in the document
// are near the question's word by USE-lite cosine (QEXPF=min cosine).
type senseFilter struct {
	wn     index.Expander
	v      *vecExpander
	byStem map[string][]int
	minCos float64
	log    bool
}

func newSenseFilter(wn index.Expander, v *vecExpander, minCos float64) *senseFilter {
	f := &senseFilter{wn: wn, v: v, byStem: map[string][]int{}, minCos: minCos, log: v.log}
	for i, s := range v.stems {
		f.byStem[s] = append(f.byStem[s], i)
	}
	return f
}

func (f *senseFilter) Expand(analyzer, q string, terms []string, df func(string) int, docs int) []index.Boosted {
	add := f.wn.Expand(analyzer, q, terms, df, docs)
	if len(add) == 0 {
		return nil
	}
	word := map[string]string{}
	for _, w := range qexpWords(q) {
		if st := f.v.analyze(w); len(st) == 1 {
			word[st[0]] = w
		}
	}
	qvs := map[string][]float32{}
	var out []index.Boosted
	for _, b := range add {
		w := word[b.For]
		if w == "" {
			continue
		}
		qv, ok := qvs[w]
		if !ok {
			vs, err := f.v.emb.Embed(context.Background(), []string{w})
			if err != nil {
				panic(err)
			}
			qv, qvs[w] = vs[0], vs[0]
		}
		best, bw := -1.0, ""
		for _, i := range f.byStem[b.Term] {
			if c := cos(qv, f.v.vecs[i]); c > best {
				best, bw = c, f.v.words[i]
			}
		}
		if best >= f.minCos {
			out = append(out, b)
			if f.log {
				fmt.Fprintf(os.Stderr, "qexpf %s -> %s(%.2f)\n", w, bw, best)
			}
		}
	}
	return out
}
