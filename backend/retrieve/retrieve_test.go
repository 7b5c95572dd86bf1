package retrieve

import (
	"context"
	"errors"
	"hash/fnv"
	"math"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"vika/backend/corpus"
	"vika/backend/embed"
	"vika/backend/index"
	"vika/backend/lowprio"
)

// fakeEmbedder is a bag of words: each lower-cased word (punctuation
// trimmed) adds 1 to a hashed dimension, then the vector is normalised.
// It counts one token per word.
type fakeEmbedder struct {
	embed.Embedder // nil: unused methods panic
	dim            int
	name           string // "" means "fake"
	fail           error  // returned by Embed when set
	during         func() // called by Embed after its context check, when set

	mu    sync.Mutex
	calls int   // guarded by mu
	prios []int // the CPU priority (lowprio.Current) of each call; guarded by mu
}

func newFakeEmbedder() *fakeEmbedder { return &fakeEmbedder{dim: 64} }

func (f *fakeEmbedder) Dim() int { return f.dim }
func (f *fakeEmbedder) Name() string {
	if f.name == "" {
		return "fake"
	}
	return f.name
}
func (f *fakeEmbedder) CountTokens(s string) int { return len(strings.Fields(s)) }
func (f *fakeEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	prio, _ := lowprio.Current()
	f.mu.Lock()
	f.calls++
	f.prios = append(f.prios, prio)
	f.mu.Unlock()
	if f.during != nil {
		f.during()
	}
	if f.fail != nil {
		return nil, f.fail
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float64, f.dim)
		for _, w := range strings.Fields(strings.ToLower(t)) {
			w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
			if w == "" {
				continue
			}
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%uint32(f.dim)]++
		}
		out[i] = toUnit(v, f.dim)
	}
	return out, nil
}

// fakeClock advances by step at every reading.
type fakeClock struct {
	mu   sync.Mutex
	t    time.Time // guarded by mu
	step time.Duration
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(c.step)
	return c.t
}

var testChunks = []corpus.Chunk{
	{ID: "c1", DocID: "d1", Lang: "en", Text: "Zebras graze on the savanna grass."},
	{ID: "c2", DocID: "d1", Lang: "en", Text: "Lions hunt zebras at night."},
	{ID: "c3", DocID: "d2", Lang: "en", Text: "Quantum chromodynamics describes quarks and gluons."},
	{ID: "c4", DocID: "d2", Lang: "fr", Text: "Les statistiques descriptives résument un échantillon."},
	{ID: "c5", DocID: "d3", Lang: "en", Text: "savanna grass savanna grass"},
}

func newTestRetriever(t *testing.T, prof *Profile) (*Retriever, *fakeEmbedder) {
	t.Helper()
	r, emb := emptyRetriever(t, Options{Profile: prof})
	if err := r.Add(context.Background(), testChunks, nil); err != nil {
		t.Fatal(err)
	}
	return r, emb
}

// emptyRetriever is a Retriever with no passages over a fresh BM25 index,
// an exact dense index and the fake embedder, on a clock that steps a
// millisecond a reading (o.Now, when unset).
func emptyRetriever(t *testing.T, o Options) (*Retriever, *fakeEmbedder) {
	t.Helper()
	lex, err := index.NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lex.Close() })
	emb := newFakeEmbedder()
	if o.Now == nil {
		o.Now = (&fakeClock{step: time.Millisecond}).now
	}
	r, err := New(lex, index.NewDense(emb.Dim()), emb, o)
	if err != nil {
		t.Fatal(err)
	}
	return r, emb
}

func hitIDs(hits []corpus.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.ChunkID)
	}
	return out
}

func TestModes(t *testing.T) {
	prof := Profile{Fusion: FusionConvex, DenseWeight: 0.5, Norm: NormMinMax, Depth: 10}
	r, _ := newTestRetriever(t, &prof)
	ctx := context.Background()

	res, err := r.Search(ctx, "zebras", SearchOptions{Mode: ModeBM25, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"c1", "c2"}, hitIDs(res.Hits)); diff != "" { // a tie, by id
		t.Errorf("bm25 (-want +got):\n%s", diff)
	}
	st := res.Stats
	if st.Mode != ModeBM25 || st.MeanCosine != nil || st.BM25Share != 100 || st.FoundBy.BM25 != 2 || st.Used != 2 || st.LexicalCandidates != 2 || st.Embed != 0 {
		t.Errorf("bm25 stats = %+v", st)
	}
	for _, h := range trace(t, res) {
		if h.FoundBy != FoundBM25 || h.LexicalRank == 0 || h.Score != h.LexicalScore || h.DenseRank != 0 {
			t.Errorf("bm25 hit = %+v", h)
		}
	}

	res, err = r.Search(ctx, "quarks gluons", SearchOptions{Mode: ModeDense, K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 2 || res.Hits[0].ChunkID != "c3" || res.Hits[0].FoundBy != FoundDense || trace(t, res)[0].DenseRank != 1 {
		t.Errorf("dense hits = %+v", res.Hits)
	}
	st = res.Stats
	if st.Mode != ModeDense || st.MeanCosine == nil || st.BM25Share != 0 || st.FoundBy.Dense != 2 || st.DenseCandidates != 2 {
		t.Errorf("dense stats = %+v", st)
	}
	if tr := trace(t, res); len(tr) < 2 {
		t.Fatalf("dense: %d hits", len(tr))
	} else if want := (tr[0].DenseScore + tr[1].DenseScore) / 2; math.Abs(*st.MeanCosine-want) > 1e-9 {
		t.Errorf("mean cosine = %v, want %v", *st.MeanCosine, want)
	}

	// French stemming reaches the French chunk through the hybrid path.
	res, err = r.Search(ctx, "statistique", SearchOptions{Mode: ModeHybrid, K: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(hitIDs(res.Hits), []string{"c4"}) || trace(t, res)[0].LexicalRank != 1 {
		t.Errorf("hybrid French hits = %+v", res.Hits)
	}
	if _, err := r.Search(ctx, "x", SearchOptions{Mode: "fuzzy"}); err == nil {
		t.Error("unknown mode: no error")
	}
	if _, err := ParseMode("hybrid"); err != nil {
		t.Error(err)
	}
	if _, err := ParseMode("fuzzy"); err == nil {
		t.Error("ParseMode(fuzzy): no error")
	}
}

// TestHybridStats checks found_by, ranks, scores and the per-query
// statistics of a hybrid search against values recomputed by hand from
// the hits. K exceeds the candidates, so the hits are all of them and the
// min-max normalisation can be redone over the hits.
func TestHybridStats(t *testing.T) {
	const w = 0.4
	prof := Profile{Fusion: FusionConvex, DenseWeight: w, Norm: NormMinMax, Depth: 3}
	r, _ := newTestRetriever(t, &prof)
	// Depth rises to K: dense returns all 5 chunks, BM25 the 3 that match.
	res, err := r.Search(context.Background(), "savanna zebras", SearchOptions{Mode: ModeHybrid, K: 10})
	if err != nil {
		t.Fatal(err)
	}
	st := res.Stats
	if st.Mode != ModeHybrid || st.Fusion != FusionConvex || st.DenseWeight != w {
		t.Errorf("stats header = %+v", st)
	}
	if st.DenseCandidates != len(testChunks) || st.LexicalCandidates != 3 || st.Used != len(res.Hits) || st.Candidates != len(res.Hits) {
		t.Errorf("candidate counts = %+v, %d hits", st, len(res.Hits))
	}
	// The fake clock ticks 1 ms per reading: every part took time, and
	// the total spans them.
	if st.Latency <= 0 || st.Embed <= 0 || st.Dense <= 0 || st.Lexical <= 0 || st.Fuse <= 0 || st.Latency < st.Fuse {
		t.Errorf("timings = %+v", st)
	}
	dlo, dhi, llo, lhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	tr := trace(t, res)
	for _, h := range tr {
		dlo, dhi = min(dlo, h.DenseScore), max(dhi, h.DenseScore)
		if h.LexicalRank > 0 {
			llo, lhi = min(llo, h.LexicalScore), max(lhi, h.LexicalScore)
		}
	}
	var counts FoundByCounts
	var lexParts, allParts, cos float64
	for i, h := range tr {
		if i > 0 && h.Score > tr[i-1].Score {
			t.Errorf("hits not sorted: %+v", res.Hits)
		}
		want := map[[2]bool]string{{true, true}: FoundBoth, {true, false}: FoundDense, {false, true}: FoundBM25}[[2]bool{h.DenseRank > 0, h.LexicalRank > 0}]
		if h.FoundBy != want {
			t.Errorf("%s found by %q, ranks dense %d lexical %d", h.ChunkID, h.FoundBy, h.DenseRank, h.LexicalRank)
		}
		switch h.FoundBy {
		case FoundBoth:
			counts.Both++
		case FoundDense:
			counts.Dense++
		case FoundBM25:
			counts.BM25++
		}
		densePart := w * (h.DenseScore - dlo) / (dhi - dlo)
		lexPart := 0.0
		if h.LexicalRank > 0 {
			lexPart = (1 - w) * (h.LexicalScore - llo) / (lhi - llo)
		} else if h.HasLexical {
			t.Errorf("%s: BM25 score without BM25 rank", h.ChunkID)
		}
		if math.Abs(h.Score-(densePart+lexPart)) > 1e-9 {
			t.Errorf("%s: score %v, want %v + %v", h.ChunkID, h.Score, densePart, lexPart)
		}
		cos += h.DenseScore
		lexParts += lexPart
		allParts += lexPart + densePart
	}
	if counts != st.FoundBy || counts.Both == 0 {
		t.Errorf("FoundBy = %+v, want %+v (with some found by both)", st.FoundBy, counts)
	}
	if st.MeanCosine == nil || math.Abs(*st.MeanCosine-cos/float64(len(res.Hits))) > 1e-9 {
		t.Errorf("mean cosine = %v, want %v", st.MeanCosine, cos/float64(len(res.Hits)))
	}
	if math.Abs(st.BM25Share-100*lexParts/allParts) > 1e-6 {
		t.Errorf("BM25 share = %v, want %v", st.BM25Share, 100*lexParts/allParts)
	}
}

func TestNoEmbedder(t *testing.T) {
	lex, err := index.NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	defer lex.Close()
	r, err := New(lex, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := r.Add(ctx, testChunks, nil); err != nil {
		t.Fatal(err)
	}
	res, err := r.Search(ctx, "zebras", SearchOptions{})
	if err != nil || res.Stats.Mode != ModeBM25 || len(res.Hits) != 2 {
		t.Errorf("default mode without embedder: %+v, %v", res, err)
	}
	res, err = r.Search(ctx, "zebras", SearchOptions{Mode: ModeHybrid})
	if err != nil || res.Stats.Mode != ModeBM25 {
		t.Errorf("hybrid without embedder: %+v, %v", res.Stats, err)
	}
	if _, err := r.Search(ctx, "zebras", SearchOptions{Mode: ModeDense}); !errors.Is(err, ErrNoEmbedder) {
		t.Errorf("dense without embedder: %v", err)
	}
	if _, err := New(lex, index.NewDense(8), nil, Options{}); err == nil {
		t.Error("dense index without embedder: no error")
	}
	if _, err := New(lex, index.NewDense(8), newFakeEmbedder(), Options{}); !errors.Is(err, index.ErrDim) {
		t.Errorf("dimension mismatch: %v", err)
	}
	if _, err := New(nil, nil, nil, Options{}); err == nil {
		t.Error("no lexical index: no error")
	}
}

func TestEmptyQueryAndDelete(t *testing.T) {
	prof := DefaultProfile("fake")
	r, _ := newTestRetriever(t, &prof)
	ctx := context.Background()
	for _, mode := range Modes {
		res, err := r.Search(ctx, "  ", SearchOptions{Mode: mode})
		if err != nil || len(res.Hits) != 0 || res.Hits == nil {
			t.Errorf("%s, blank query: %+v, %v", mode, res.Hits, err)
		}
	}
	// Stop words only: BM25 finds nothing, dense still answers.
	res, err := r.Search(ctx, "the and of", SearchOptions{Mode: ModeHybrid, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if h.FoundBy != FoundDense {
			t.Errorf("stop words: %+v", h)
		}
	}
	if err := r.DeleteDoc(ctx, "d1"); err != nil {
		t.Fatal(err)
	}
	for _, mode := range Modes {
		res, err := r.Search(ctx, "zebras lions", SearchOptions{Mode: mode, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if h.ChunkID == "c1" || h.ChunkID == "c2" {
				t.Errorf("%s: deleted chunk %s found", mode, h.ChunkID)
			}
		}
	}
}

func TestProfiles(t *testing.T) {
	if p := ProfileFor("use-lite"); p.Model != "use-lite" || p.Passage.MaxTokens == 0 {
		t.Errorf("use-lite profile = %+v", p)
	}
	if p := ProfileFor("unmeasured"); p.Fusion != FusionConvex || p.Norm != NormZScore || p.DenseWeight != DefaultDenseWeight || p.Model != "unmeasured" {
		t.Errorf("default profile = %+v", p)
	}
	r, _ := newTestRetriever(t, nil)
	if r.Profile().Model != "fake" {
		t.Errorf("profile of fake = %+v", r.Profile())
	}
	if r.WithProfile(Profile{Model: "x"}).Profile().Model != "x" || r.Profile().Model != "fake" {
		t.Error("WithProfile changed the original")
	}
}
