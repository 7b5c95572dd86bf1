package retrieve

import (
	"cmp"
	"context"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"vika/backend/assets"
	"vika/backend/assets/assetstest"
	"vika/backend/corpus"
	"vika/backend/index"
	"vika/backend/message"
	"vika/backend/rerank"
)

// Shared fixtures (testdata/bert at the top of the repository, written by its gen.sh): a tiny BERT-shaped
// cross-encoder with seeded weights and the WordPiece vocabulary it knows.
const bertFixtures = "../../testdata/bert"

// rerankChunks use words of the tiny vocabulary; each shares a word with
// rerankQuery, so BM25 retrieves them all.
var rerankChunks = []corpus.Chunk{
	{ID: "r1", DocID: "d1", Lang: "en", Text: "the cat sat on the mat."},
	{ID: "r2", DocID: "d1", Lang: "en", Text: "photosynthesis turns light into energy, the cat said."},
	{ID: "r3", DocID: "d2", Lang: "en", Text: "protein folding kinetics: the enzyme is sitting."},
	{ID: "r4", DocID: "d2", Lang: "en", Text: "water boils at 100 degrees celsius, what a cat."},
	{ID: "r5", DocID: "d3", Lang: "en", Text: "deep neural network learning model for dna replication."},
	{ID: "r6", DocID: "d3", Lang: "en", Text: "cellular respiration: how does the cell work?"},
}

const rerankQuery = "the cat enzyme water network cell photosynthesis"

func textsOf(chunks []corpus.Chunk) PassagesFunc {
	return func(_ context.Context, ids []string) (map[string]string, error) {
		out := map[string]string{}
		for _, id := range ids {
			for _, c := range chunks {
				if c.ID == id {
					out[id] = c.Text
				}
			}
		}
		return out, nil
	}
}

func bm25Retriever(t *testing.T, chunks []corpus.Chunk) *Retriever {
	t.Helper()
	lex, err := index.NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lex.Close() })
	clock := &fakeClock{step: time.Millisecond}
	r, err := New(lex, nil, nil, Options{Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Add(context.Background(), chunks, nil); err != nil {
		t.Fatal(err)
	}
	return r
}

func tinyCrossEncoder(t *testing.T) *rerank.CrossEncoder {
	t.Helper()
	lib := assetstest.Require(t, assets.ORT)
	c, err := rerank.LoadCrossEncoder(rerank.Options{Name: "tiny-cross", Library: lib,
		Model: filepath.Join(bertFixtures, "cross_encoder.onnx"), Tokenizer: filepath.Join(bertFixtures, "tokenizer.json"), MaxTokens: 32})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestRerankFollowsLogits: the tiny cross-encoder rescores the best
// RerankDepth BM25 candidates; they come back in the order of its logits
// (computed here by a direct call), with those logits as RerankScore, and
// the candidates below the depth follow in BM25 order without a score.
func TestRerankFollowsLogits(t *testing.T) {
	ce := tinyCrossEncoder(t)
	r := bm25Retriever(t, rerankChunks)
	ctx := context.Background()
	plain, err := r.Search(ctx, rerankQuery, SearchOptions{Mode: ModeBM25, K: 6})
	if err != nil || len(plain.Hits) != 6 {
		t.Fatalf("bm25: %d hits, %v", len(plain.Hits), err)
	}
	const depth = 4
	texts := textsOf(rerankChunks)
	byID, _ := texts(ctx, hitIDs(plain.Hits))
	var passages []string
	for _, h := range plain.Hits[:depth] {
		passages = append(passages, byID[h.ChunkID])
	}
	logits, err := ce.Rerank(ctx, rerankQuery, passages)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Search(ctx, rerankQuery, SearchOptions{Mode: ModeBM25, K: 6, Rerank: ce, RerankDepth: depth, Passages: texts})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 6 {
		t.Fatalf("%d hits", len(res.Hits))
	}
	logitOf := map[string]float64{}
	for i, h := range plain.Hits[:depth] {
		logitOf[h.ChunkID] = logits[i]
	}
	for i, h := range res.Hits[:depth] {
		want, ok := logitOf[h.ChunkID]
		if !ok || h.RerankScore == nil || math.Abs(*h.RerankScore-want) > 1e-6 {
			t.Fatalf("hit %d %s: rerank score %v, direct logit %v (in top %d: %v)", i, h.ChunkID, h.RerankScore, want, depth, ok)
		}

		if h.Score != plain.Hits[indexOf(plain.Hits, h.ChunkID)].Score {
			t.Errorf("%s: the retrieval score changed", h.ChunkID)
		}
	}
	if got, want := hitIDs(res.Hits[:depth]), fusedOrder(hitIDs(plain.Hits[:depth]), logits); !slices.Equal(got, want) {
		t.Errorf("reranked order %v, want the fusion of the BM25 order and the logits' %v", got, want)
	}
	if strings.Join(hitIDs(res.Hits[:depth]), " ") == strings.Join(hitIDs(plain.Hits[:depth]), " ") {
		t.Errorf("the logits did not reorder the BM25 order %v (pick other fixtures)", hitIDs(plain.Hits[:depth]))
	}
	for i := depth; i < 6; i++ {
		if h := res.Hits[i]; h.RerankScore != nil || h.ChunkID != plain.Hits[i].ChunkID {
			t.Errorf("hit %d below the depth: %s score %v, want %s unscored", i, h.ChunkID, h.RerankScore, plain.Hits[i].ChunkID)
		}
	}
	st := res.Stats
	if st.Reranker != "tiny-cross" || st.Reranked != depth || st.Rerank <= 0 || st.Latency < st.Rerank {
		t.Errorf("stats: reranker %q, reranked %d, rerank %v, latency %v", st.Reranker, st.Reranked, st.Rerank, st.Latency)
	}
	t.Logf("BM25 %v -> reranked %v", hitIDs(plain.Hits[:depth]), hitIDs(res.Hits[:depth]))

	// Fewer hits than rescored candidates: the stats keep every score
	// (what Recall@5 counts), best first.
	few, err := r.Search(ctx, rerankQuery, SearchOptions{Mode: ModeBM25, K: 2, Rerank: ce, RerankDepth: depth, Passages: texts})
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(logits)
	slices.SortFunc(want, func(a, b float64) int { return cmp.Compare(b, a) })
	if len(few.Hits) != 2 || !slices.Equal(few.Stats.RerankScores, want) {
		t.Errorf("K 2, depth %d: %d hits, stats' rerank scores %v, want every logit best first %v", depth, len(few.Hits), few.Stats.RerankScores, want)
	}
	if plain.Stats.RerankScores != nil {
		t.Errorf("no reranker, yet rerank scores %v", plain.Stats.RerankScores)
	}
}

// fusedOrder is the order orderByRerank must give: ids in retrieval order,
// scores the reranker's, each id scored 1/(61+i) by its retrieval rank i
// plus 1/(61+j) by its rank j among the scores (ties: the higher score).
func fusedOrder(ids []string, scores []float64) []string {
	byScore := make([]int, len(ids))
	for i := range byScore {
		byScore[i] = i
	}
	slices.SortStableFunc(byScore, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	fused := make([]float64, len(ids))
	for i := range ids {
		fused[i] += 1 / (61 + float64(i))
	}
	for j, i := range byScore {
		fused[i] += 1 / (61 + float64(j))
	}
	order := make([]int, len(ids))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if x := cmp.Compare(fused[b], fused[a]); x != 0 {
			return x
		}
		return cmp.Compare(scores[b], scores[a])
	})
	out := make([]string, len(ids))
	for k, i := range order {
		out[k] = ids[i]
	}
	return out
}

func indexOf(hits []corpus.Hit, id string) int {
	for i, h := range hits {
		if h.ChunkID == id {
			return i
		}
	}
	return -1
}

// fakeReranker scores a passage by a function of its text.
type fakeReranker struct {
	score func(text string) float64
	extra int // scores returned beyond the passages
}

func (f fakeReranker) Name() string { return "fake-rerank" }
func (f fakeReranker) Rerank(ctx context.Context, q string, passages []string) ([]float64, error) {
	out := make([]float64, len(passages)+f.extra)
	for i, p := range passages {
		out[i] = f.score(p)
	}
	return out, nil
}

// failingReranker fails every call.
type failingReranker struct{}

func (failingReranker) Name() string { return "broken" }
func (failingReranker) Rerank(context.Context, string, []string) ([]float64, error) {
	return nil, errors.New("onnxruntime: invalid input")
}

func TestRerankNoneAndEdges(t *testing.T) {
	ctx := context.Background()
	r, _ := newTestRetriever(t, nil)
	for _, mode := range Modes {
		res, err := r.Search(ctx, "zebras savanna grass", SearchOptions{Mode: mode, K: 3})
		if err != nil || len(res.Hits) == 0 {
			t.Fatalf("%s: %v, %v", mode, res.Hits, err)
		}
		if res.Stats.Reranker != "none" || res.Stats.Reranked != 0 || res.Stats.Rerank != 0 {
			t.Errorf("%s without reranker: stats %+v", mode, res.Stats)
		}
		for _, h := range res.Hits {
			if h.RerankScore != nil {
				t.Errorf("%s without reranker: %s has rerank score %v", mode, h.ChunkID, *h.RerankScore)
			}
		}
	}
	// Shortest text first by the reranker: in hybrid mode the order is its
	// order fused with retrieval's.
	short := fakeReranker{score: func(s string) float64 { return -float64(len(s)) }}
	plainAll, _ := r.Search(ctx, "zebras savanna grass", SearchOptions{Mode: ModeHybrid, K: len(testChunks)})
	res, err := r.Search(ctx, "zebras savanna grass", SearchOptions{Mode: ModeHybrid, K: 3, Rerank: short, Passages: textsOf(testChunks)})
	if err != nil {
		t.Fatal(err)
	}
	byID, _ := textsOf(testChunks)(ctx, hitIDs(plainAll.Hits))
	var lengths []float64
	for _, h := range plainAll.Hits {
		lengths = append(lengths, -float64(len(byID[h.ChunkID])))
	}
	if got, want := hitIDs(res.Hits), fusedOrder(hitIDs(plainAll.Hits), lengths)[:len(res.Hits)]; !slices.Equal(got, want) {
		t.Errorf("hybrid: order %v, want the fused order %v", got, want)
	}
	if res.Stats.Reranker != "fake-rerank" || res.Stats.Reranked != len(testChunks) {
		t.Errorf("hybrid reranked: %+v", res.Stats)
	}
	// A constant score keeps the retrieval order.
	flat := fakeReranker{score: func(string) float64 { return 1 }}
	plain, _ := r.Search(ctx, "zebras savanna grass", SearchOptions{Mode: ModeHybrid, K: 5})
	res, err = r.Search(ctx, "zebras savanna grass", SearchOptions{Mode: ModeHybrid, K: 5, Rerank: flat, Passages: textsOf(testChunks)})
	if err != nil || strings.Join(hitIDs(res.Hits), " ") != strings.Join(hitIDs(plain.Hits), " ") {
		t.Errorf("ties: %v, want %v (%v)", hitIDs(res.Hits), hitIDs(plain.Hits), err)
	}
	// A passage whose text is gone is not rescored and goes after the others.
	res, err = r.Search(ctx, "zebras savanna grass", SearchOptions{Mode: ModeBM25, K: 5, Rerank: short, Passages: textsOf(testChunks[1:])})
	if err != nil {
		t.Fatal(err)
	}
	if last := res.Hits[len(res.Hits)-1]; last.ChunkID != "c1" || last.RerankScore != nil || res.Stats.Reranked != len(res.Hits)-1 {
		t.Errorf("missing text: %v, last %+v, reranked %d", hitIDs(res.Hits), last, res.Stats.Reranked)
	}
	if _, err := r.Search(ctx, "zebras", SearchOptions{Rerank: short}); err == nil {
		t.Error("rerank without texts: no error")
	}
	// A reranker that fails (here: too many scores, or an error) leaves the
	// retrieval order, without scores, and says why.
	for _, bad := range []Reranker{fakeReranker{score: short.score, extra: 1}, failingReranker{}} {
		res, err := r.Search(ctx, "zebras savanna grass", SearchOptions{Mode: ModeHybrid, K: 5, Rerank: bad, Passages: textsOf(testChunks)})
		if err != nil || strings.Join(hitIDs(res.Hits), " ") != strings.Join(hitIDs(plain.Hits), " ") {
			t.Errorf("failing reranker: %v, %v; want the retrieval order %v", hitIDs(res.Hits), err, hitIDs(plain.Hits))
		}
		if res.Stats.Reranker != "none" || res.Stats.RerankError == nil || res.Stats.RerankError.Code != message.SearchRerankFailed ||
			!strings.Contains(res.Stats.RerankError.English(), "failed, passages are in retrieval order") {
			t.Errorf("failing reranker: stats %+v", res.Stats)
		}
		for _, h := range res.Hits {
			if h.RerankScore != nil {
				t.Errorf("failing reranker: %s has a score", h.ChunkID)
			}
		}
	}
	boom := errors.New("boom")
	if _, err := r.Search(ctx, "zebras", SearchOptions{Passages: PassagesFunc(func(context.Context, []string) (map[string]string, error) { return nil, boom }), Rerank: short}); !errors.Is(err, boom) {
		t.Errorf("texts error: %v", err)
	}
	// Nothing found: the reranker is named but rescored nothing.
	res, err = r.Search(ctx, "   ", SearchOptions{Mode: ModeBM25, Rerank: short, Passages: textsOf(testChunks)})
	if err != nil || len(res.Hits) != 0 || res.Stats.Reranker != "fake-rerank" || res.Stats.Reranked != 0 {
		t.Errorf("blank query: %+v, %v", res, err)
	}
}
