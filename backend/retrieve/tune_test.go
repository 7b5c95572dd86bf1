//go:build tune

package retrieve

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"vika/backend/embed"
	"vika/backend/eval"
	"vika/backend/eval/evaltest"
	"vika/backend/index"
)

// This file holds the measurements behind the USE-lite profile (see
// profiles in profile.go): sweeps on BEIR SciFact that choose on train and
// report test. They are experiments, not checks: built only with the tag
// "tune", they need ../shared/data and the installed model, print
// "TUNE ..." lines and take minutes to an hour on a 2-core machine (the
// corpus embedding alone takes 1 to 5 minutes per passage strategy).
// `make test` only compiles them. Run them with -tags "tune webkit2_41":
//
//	go test -tags "tune webkit2_41" -run TestTuneHybrid -v -timeout 3h ./backend/retrieve
//	    passage strategies x {convex min-max, convex z-score, RRF}
//	    x dense weight x depth; VIKA_TUNE_STRATEGIES=0,1 picks strategies,
//	    VIKA_TUNE_GRID=prf sweeps dense pseudo-relevance feedback instead
//	go test -tags "tune webkit2_41" -run TestTuneMaxSim -v ./backend/retrieve
//	    best-sentence (max) cosine against the mean vector
//	go test -tags "tune webkit2_41" -run TestTuneFusionVariants -v ./backend/retrieve
//	    candidate sets and normalisations
//
// VIKA_TUNE_CACHE=DIR keeps corpus embeddings between runs (experiments
// only: the product caches nothing on disk). BM25 and RM3 sweeps live in
// backend/index/tune_test.go.

// cachedEmbed embeds the corpus with p, through VIKA_TUNE_CACHE if set.
func cachedEmbed(tb testing.TB, emb embed.Embedder, p Passage, texts []string) [][]float32 {
	tb.Helper()
	dir := os.Getenv("VIKA_TUNE_CACHE")
	name := fmt.Sprintf("%s-%d-max%d-sent%v-w%v.f32", emb.Name(), len(texts), p.MaxTokens, p.PerSentence, p.TokenWeighted)
	path := filepath.Join(dir, name)
	if dir != "" {
		if raw, err := os.ReadFile(path); err == nil && len(raw) == 4*len(texts)*emb.Dim() {
			out := make([][]float32, len(texts))
			for i := range out {
				v := make([]float32, emb.Dim())
				for j := range v {
					v[j] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*(i*emb.Dim()+j):]))
				}
				out[i] = v
			}
			return out
		}
	}
	start := time.Now()
	vecs, err := EmbedPassages(context.Background(), emb, p, texts, EmbedOptions{Workers: 2})
	if err != nil {
		tb.Fatal(err)
	}
	fmt.Printf("TUNE embedded %d texts with %+v in %v\n", len(texts), p, time.Since(start).Round(time.Second))
	if dir != "" {
		raw := make([]byte, 0, 4*len(texts)*emb.Dim())
		for _, v := range vecs {
			for _, x := range v {
				raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(x))
			}
		}
		if err := os.MkdirAll(dir, 0o755); err == nil {
			_ = os.WriteFile(path, raw, 0o644)
		}
	}
	return vecs
}

// tuneQuery is one query with its retrieval lists at the largest depth.
type tuneQuery struct {
	id        string
	qv        []float32
	lexList   []index.Scored
	denseList []index.Scored
}

const maxDepth = 1000

func TestTuneHybrid(t *testing.T) {
	ctx := context.Background()
	train, test := evaltest.SciFact(t, "train"), evaltest.SciFact(t, "test")
	emb := loadUSELite(t)
	chunks := eval.Chunks(train.Corpus)
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = c.Text
	}
	lex, err := index.NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	defer lex.Close()
	if err := lex.Add(ctx, chunks); err != nil {
		t.Fatal(err)
	}
	splits := []*eval.Dataset{train, test}
	lexLists := map[string][]index.Scored{}
	var qtexts []string
	var qids []string
	for _, ds := range splits {
		for _, q := range ds.Queries {
			l, err := lex.Search(ctx, q.Text, maxDepth)
			if err != nil {
				t.Fatal(err)
			}
			lexLists[q.ID] = l
			qtexts = append(qtexts, q.Text)
			qids = append(qids, q.ID)
		}
	}

	strategies := []Passage{
		{},
		{MaxTokens: 128},
		{MaxTokens: 128, TokenWeighted: true},
		{MaxTokens: 64},
		{MaxTokens: 64, TokenWeighted: true},
		{PerSentence: true, MaxTokens: 128},
		{PerSentence: true, MaxTokens: 128, TokenWeighted: true},
	}
	if s := os.Getenv("VIKA_TUNE_STRATEGIES"); s != "" { // e.g. "1,2"
		var keep []Passage
		for _, f := range strings.Split(s, ",") {
			var i int
			fmt.Sscan(f, &i)
			keep = append(keep, strategies[i])
		}
		strategies = keep
	}
	for _, p := range strategies {
		vecs := cachedEmbed(t, emb, p, texts)
		qvecs, err := EmbedPassages(ctx, emb, p, qtexts, EmbedOptions{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		dense := index.NewDense(emb.Dim())
		if err := dense.Add(chunks, vecs); err != nil {
			t.Fatal(err)
		}
		queries := map[string]*tuneQuery{}
		for i, id := range qids {
			dl, err := dense.Search(ctx, qvecs[i], maxDepth)
			if err != nil {
				t.Fatal(err)
			}
			queries[id] = &tuneQuery{id: id, qv: qvecs[i], lexList: lexLists[id], denseList: dl}
		}
		r, err := New(lex, dense, emb, Options{})
		if err != nil {
			t.Fatal(err)
		}
		tag := fmt.Sprintf("max=%d sent=%v tw=%v", p.MaxTokens, p.PerSentence, p.TokenWeighted)
		report := func(name string, run func(q *tuneQuery) []string) {
			var ms []eval.Metrics
			for _, ds := range splits {
				rn := eval.Run{}
				for _, q := range ds.Queries {
					rn[q.ID] = run(queries[q.ID])
				}
				ms = append(ms, eval.Evaluate(rn, ds.Qrels))
			}
			fmt.Printf("TUNE %s | %s | train ndcg=%.4f r100=%.4f mrr=%.4f | test ndcg=%.4f r100=%.4f mrr=%.4f\n",
				tag, name, ms[0].NDCG10, ms[0].Recall100, ms[0].MRR10, ms[1].NDCG10, ms[1].Recall100, ms[1].MRR10)
		}
		ids := func(l []index.Scored) []string {
			out := make([]string, 0, min(100, len(l)))
			for _, s := range l[:min(100, len(l))] {
				out = append(out, s.ChunkID)
			}
			return out
		}
		report("bm25", func(q *tuneQuery) []string { return ids(q.lexList) })
		report("dense", func(q *tuneQuery) []string { return ids(q.denseList) })

		hybrid := func(prof Profile, depth int) func(q *tuneQuery) []string {
			rp := r.WithProfile(prof)
			return func(q *tuneQuery) []string {
				cands, err := rp.spaces[0].fuseLists(ctx, q.qv, q.denseList[:min(depth, len(q.denseList))], q.lexList[:min(depth, len(q.lexList))], depth, "")
				if err != nil {
					t.Fatal(err)
				}
				out := make([]string, 0, 100)
				for _, c := range cands[:min(100, len(cands))] {
					out = append(out, c.id)
				}
				return out
			}
		}
		if os.Getenv("VIKA_TUNE_GRID") == "prf" {
			for _, depth := range []int{300, 1000} {
				for _, w := range []float64{0.4, 0.5, 0.6, 0.7} {
					for _, docs := range []int{0, 1, 3, 5, 10} {
						for _, beta := range []float64{0.5, 1, 2} {
							if docs == 0 && beta != 1 {
								continue
							}
							prof := Profile{Passage: p, Fusion: FusionConvex, DenseWeight: w, Norm: NormZScore, Depth: depth, PRF: PRF{Docs: docs, Weight: beta}}
							report(fmt.Sprintf("convex norm=zscore depth=%d w=%.2f prf=%d x %.1f", depth, w, docs, beta), hybrid(prof, depth))
						}
					}
				}
			}
			continue
		}
		weights := []float64{0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}
		for _, depth := range []int{100, 300, 1000} {
			for _, w := range weights {
				for _, norm := range []Norm{NormMinMax, NormZScore} {
					prof := Profile{Passage: p, Fusion: FusionConvex, DenseWeight: w, Norm: norm, Depth: depth}
					report(fmt.Sprintf("convex norm=%s depth=%d w=%.2f", norm, depth, w), hybrid(prof, depth))
				}
				prof := Profile{Passage: p, Fusion: FusionRRF, DenseWeight: w, RRFK: 60, Depth: depth}
				report(fmt.Sprintf("rrf k=60 depth=%d w=%.2f", depth, w), hybrid(prof, depth))
			}
		}
	}
}

// TestTuneMaxSim measures scoring a chunk by its best sentence (the
// maximum cosine over its sentences' vectors) instead of, or mixed with,
// the cosine of its mean vector. (see the top of the file).
func TestTuneMaxSim(t *testing.T) {
	ctx := context.Background()
	train, test := evaltest.SciFact(t, "train"), evaltest.SciFact(t, "test")
	emb := loadUSELite(t)
	chunks := eval.Chunks(train.Corpus)
	count := counter(emb)
	sentP := Passage{PerSentence: true, MaxTokens: 128}
	var pieces []string
	var owner []int
	for i, c := range chunks {
		for _, p := range sentP.split(c.Text, count) {
			pieces = append(pieces, p.text)
			owner = append(owner, i)
		}
	}
	pvecs := cachedEmbed(t, emb, Passage{MaxTokens: -len(pieces)}, pieces) // key only: pieces are embedded whole
	meanP := Passage{MaxTokens: 128}
	if s := os.Getenv("VIKA_TUNE_MEAN"); s == "0" {
		meanP = Passage{}
	}
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = c.Text
	}
	mvecs := cachedEmbed(t, emb, meanP, texts)
	lex, err := index.NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	defer lex.Close()
	if err := lex.Add(ctx, chunks); err != nil {
		t.Fatal(err)
	}
	dense := index.NewDense(emb.Dim())
	if err := dense.Add(chunks, mvecs); err != nil {
		t.Fatal(err)
	}
	r, err := New(lex, dense, emb, Options{})
	if err != nil {
		t.Fatal(err)
	}
	type q struct {
		lexList []index.Scored
		maxSim  []float64 // by chunk
		meanSim []float64
	}
	qs := map[string]*q{}
	splits := []*eval.Dataset{train, test}
	for _, ds := range splits {
		for _, query := range ds.Queries {
			l, err := lex.Search(ctx, query.Text, maxDepth)
			if err != nil {
				t.Fatal(err)
			}
			qv, err := r.spaces[0].embedQuery(ctx, query.Text)
			if err != nil {
				t.Fatal(err)
			}
			x := &q{lexList: l, maxSim: make([]float64, len(chunks)), meanSim: make([]float64, len(chunks))}
			for i := range x.maxSim {
				x.maxSim[i] = -2
				x.meanSim[i] = float64(dotf(qv, mvecs[i]))
			}
			for p, v := range pvecs {
				x.maxSim[owner[p]] = max(x.maxSim[owner[p]], float64(dotf(qv, v)))
			}
			qs[query.ID] = x
		}
	}
	idx := map[string]int{}
	for i, c := range chunks {
		idx[c.ID] = i
	}
	report := func(name string, run func(x *q) []string) {
		var ms []eval.Metrics
		for _, ds := range splits {
			rn := eval.Run{}
			for _, query := range ds.Queries {
				rn[query.ID] = run(qs[query.ID])
			}
			ms = append(ms, eval.Evaluate(rn, ds.Qrels))
		}
		fmt.Printf("TUNE maxsim | %s | train ndcg=%.4f r100=%.4f mrr=%.4f | test ndcg=%.4f r100=%.4f mrr=%.4f\n",
			name, ms[0].NDCG10, ms[0].Recall100, ms[0].MRR10, ms[1].NDCG10, ms[1].Recall100, ms[1].MRR10)
	}
	// score mixes the two cosines: a·max + (1−a)·mean.
	score := func(x *q, a float64, i int) float64 { return a*x.maxSim[i] + (1-a)*x.meanSim[i] }
	topDense := func(x *q, a float64, k int) []index.Scored {
		all := make([]index.Scored, len(chunks))
		for i := range chunks {
			all[i] = index.Scored{ChunkID: chunks[i].ID, Score: score(x, a, i)}
		}
		slicesSortScored(all)
		return all[:k]
	}
	for _, a := range []float64{0, 0.25, 0.5, 0.75, 1} {
		report(fmt.Sprintf("dense a=%.2f", a), func(x *q) []string {
			var out []string
			for _, s := range topDense(x, a, 100) {
				out = append(out, s.ChunkID)
			}
			return out
		})
		for _, depth := range []int{100, 1000} {
			for _, w := range []float64{0.2, 0.3, 0.4, 0.5, 0.6, 0.7} {
				for _, norm := range []Norm{NormMinMax, NormZScore} {
					f := fusion{method: FusionConvex, denseWeight: w, norm: norm}
					report(fmt.Sprintf("a=%.2f convex norm=%s depth=%d w=%.2f", a, norm, depth, w), func(x *q) []string {
						byID := map[string]*candidate{}
						var cands []*candidate
						get := func(id string) *candidate {
							if c := byID[id]; c != nil {
								return c
							}
							c := &candidate{id: id, hasDense: true, dense: score(x, a, idx[id])}
							byID[id] = c
							cands = append(cands, c)
							return c
						}
						for i, s := range topDense(x, a, depth) {
							get(s.ChunkID).denseRank = i + 1
						}
						for i, s := range x.lexList[:min(depth, len(x.lexList))] {
							c := get(s.ChunkID)
							c.lexicalRank, c.lexical = i+1, s.Score
						}
						fuse(cands, f)
						var out []string
						for _, c := range cands[:min(100, len(cands))] {
							out = append(out, c.id)
						}
						return out
					})
				}
			}
		}
	}
}

func dotf(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func slicesSortScored(s []index.Scored) {
	slices.SortFunc(s, func(a, b index.Scored) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ChunkID, b.ChunkID)
	})
}

// TestTuneFusionVariants compares ways of building and normalising the
// hybrid candidates, on the cached corpus vectors of VIKA_TUNE_STRATEGIES
// (default: 128-token windows): the union of both lists with candidate
// z-scores (the product's), BM25's candidates only (dense as a
// reranker), and the dense cosine standardised over the whole corpus.
func TestTuneFusionVariants(t *testing.T) {
	ctx := context.Background()
	train, test := evaltest.SciFact(t, "train"), evaltest.SciFact(t, "test")
	emb := loadUSELite(t)
	chunks := eval.Chunks(train.Corpus)
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = c.Text
	}
	p := Passage{MaxTokens: 128}
	if os.Getenv("VIKA_TUNE_STRATEGIES") == "0" {
		p = Passage{}
	}
	vecs := cachedEmbed(t, emb, p, texts)
	lex, err := index.NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	defer lex.Close()
	if err := lex.Add(ctx, chunks); err != nil {
		t.Fatal(err)
	}
	dense := index.NewDense(emb.Dim())
	if err := dense.Add(chunks, vecs); err != nil {
		t.Fatal(err)
	}
	r, err := New(lex, dense, emb, Options{Profile: &Profile{Passage: p}})
	if err != nil {
		t.Fatal(err)
	}
	type q struct {
		qv         []float32
		lexList    []index.Scored
		denseList  []index.Scored
		gmean, gsd float64
	}
	qs := map[string]*q{}
	splits := []*eval.Dataset{train, test}
	for _, ds := range splits {
		for _, query := range ds.Queries {
			x := &q{}
			if x.lexList, err = lex.Search(ctx, query.Text, maxDepth); err != nil {
				t.Fatal(err)
			}
			if x.qv, err = r.spaces[0].embedQuery(ctx, query.Text); err != nil {
				t.Fatal(err)
			}
			if x.denseList, err = dense.Search(ctx, x.qv, maxDepth); err != nil {
				t.Fatal(err)
			}
			var s, ss float64
			for _, v := range vecs {
				c := float64(dotf(x.qv, v))
				s, ss = s+c, ss+c*c
			}
			n := float64(len(vecs))
			x.gmean = s / n
			x.gsd = math.Sqrt(ss/n - x.gmean*x.gmean)
			qs[query.ID] = x
		}
	}
	report := func(name string, run func(x *q) []string) {
		var ms []eval.Metrics
		for _, ds := range splits {
			rn := eval.Run{}
			for _, query := range ds.Queries {
				rn[query.ID] = run(qs[query.ID])
			}
			ms = append(ms, eval.Evaluate(rn, ds.Qrels))
		}
		fmt.Printf("TUNE variants max=%d | %s | train ndcg=%.4f r100=%.4f mrr=%.4f | test ndcg=%.4f r100=%.4f mrr=%.4f\n",
			p.MaxTokens, name, ms[0].NDCG10, ms[0].Recall100, ms[0].MRR10, ms[1].NDCG10, ms[1].Recall100, ms[1].MRR10)
	}
	top := func(cands []*candidate) []string {
		var out []string
		for _, c := range cands[:min(100, len(cands))] {
			out = append(out, c.id)
		}
		return out
	}
	for _, depth := range []int{100, 300, 1000} {
		for _, w := range []float64{0.3, 0.4, 0.5, 0.6, 0.7} {
			f := fusion{method: FusionConvex, denseWeight: w, norm: NormZScore}
			report(fmt.Sprintf("union-z depth=%d w=%.2f", depth, w), func(x *q) []string {
				cands, err := r.spaces[0].candidates(x.qv, nil, x.denseList[:depth], x.lexList[:min(depth, len(x.lexList))])
				if err != nil {
					t.Fatal(err)
				}
				fuse(cands, f)
				return top(cands)
			})
			report(fmt.Sprintf("bm25-only-z depth=%d w=%.2f", depth, w), func(x *q) []string {
				cands, err := r.spaces[0].candidates(x.qv, nil, nil, x.lexList[:min(depth, len(x.lexList))])
				if err != nil {
					t.Fatal(err)
				}
				fuse(cands, f)
				return top(cands)
			})
			report(fmt.Sprintf("global-z depth=%d w=%.2f", depth, w), func(x *q) []string {
				cands, err := r.spaces[0].candidates(x.qv, nil, x.denseList[:depth], x.lexList[:min(depth, len(x.lexList))])
				if err != nil {
					t.Fatal(err)
				}
				ln := normalizer(cands, NormZScore, func(c *candidate) (float64, bool) { return c.lexical, c.lexicalRank > 0 })
				for _, c := range cands {
					c.densePart = w * (c.dense - x.gmean) / x.gsd
					c.lexicalPart = (1 - w) * ln(c.lexical, c.lexicalRank > 0)
					c.score = c.densePart + c.lexicalPart
				}
				slices.SortFunc(cands, compareFused)
				return top(cands)
			})
		}
	}
}
