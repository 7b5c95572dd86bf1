package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/assets"
	"vika/backend/assets/assetstest"
	"vika/backend/message"
	"vika/backend/models"
	"vika/backend/models/modelstest"
	"vika/backend/retrieve"
	"vika/backend/testpdf"
)

// Tiny BERT-shaped models with seeded weights (the repository's
// testdata/bert, written by its gen.sh): two sentence encoders of different sizes and a
// cross-encoder, with their WordPiece tokenizer.
const bertFixtures = "../../testdata/bert"

// install installs fixture model (an .onnx file of bertFixtures) as the
// registry model name under root, as `vika models download` would.
func install(t *testing.T, root, name, model string) {
	t.Helper()
	modelstest.Install(t, root, name, filepath.Join(bertFixtures, model), filepath.Join(bertFixtures, "tokenizer.json"))
}

var (
	catsPDF = testpdf.Text(
		"The cat sat on the mat while the enzyme kinetics lecture went on about protein folding.",
		"Photosynthesis turns light into energy; the cell uses water and light.",
		"Deep neural network learning: a model of DNA replication in the cell.")
	coursPDF = testpdf.Text(
		"Le chat est assis sur le tapis pendant que les élèves du café écoutent la leçon de biologie cellulaire.",
		"La photosynthèse transforme la lumière en énergie pour la cellule et les élèves du café.")
)

// TestRerankInstalled: with the tiny cross-encoder installed, a search
// asked to rerank is ordered by its scores and says which reranker ran;
// without the option, or without an installed reranker, nothing is
// rescored and the reranker is "none".
func TestRerankInstalled(t *testing.T) {
	assetstest.Require(t, assets.ORT)
	ctx := context.Background()
	none := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	mustAdd(t, none, "cats.pdf", catsPDF)
	if label, err := none.Reranker(); label != "none" || err != nil {
		t.Errorf("no reranker installed: %q, %v", label, err)
	}
	res, err := none.Search(ctx, retrieve.Query{Question: "the cat and the cell"}, SearchOptions{Rerank: true})
	if err != nil || len(res.Hits) == 0 || res.Stats.Reranker != "none" {
		t.Fatalf("without reranker: %+v, %v", res, err)
	}
	for _, h := range res.Hits {
		if h.RerankScore != nil {
			t.Errorf("without reranker, %s has rerank score %v", h.Label, *h.RerankScore)
		}
	}

	// Installed while the session runs (the window's model manager): the
	// next search uses it.
	root := t.TempDir()
	e := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: root})
	mustAdd(t, e, "cats.pdf", catsPDF)
	if res, err := e.Search(ctx, retrieve.Query{Question: "the cat and the cell"}, SearchOptions{Rerank: true}); err != nil || res.Stats.Reranker != "none" {
		t.Fatalf("before the download: %+v, %v", res.Stats, err)
	}
	name := models.Rerankers()[0].Name
	install(t, root, name, "cross_encoder.onnx")
	plain, err := e.Search(ctx, retrieve.Query{Question: "the cat and the cell"}, SearchOptions{})
	if err != nil || plain.Stats.Reranker != "none" || len(plain.Hits) < 2 {
		t.Fatalf("rerank off: %+v, %v", plain.Stats, err)
	}
	res, err = e.Search(ctx, retrieve.Query{Question: "the cat and the cell"}, SearchOptions{Rerank: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Reranker != name || res.Stats.Reranked != len(res.Hits) || len(res.Hits) != len(plain.Hits) {
		t.Errorf("rerank on: stats %+v, %d hits, %d without", res.Stats, len(res.Hits), len(plain.Hits))
	}
	for i, h := range res.Hits {
		if h.RerankScore == nil {
			t.Fatalf("hit %d has no rerank score", i)
		}
	}
	// The order is the cross-encoder's fused with retrieval's
	// (retrieve.orderByRerank): the best by both comes first.
	best := 0
	for i, h := range res.Hits {
		if *h.RerankScore > *res.Hits[best].RerankScore {
			best = i
		}
	}
	if best != 0 && res.Hits[best].ChunkID == plain.Hits[0].ChunkID {
		t.Errorf("%s is first by retrieval and by the cross-encoder, yet ranks %d", res.Hits[best].Label, best+1)
	}
	if label, err := e.Reranker(); label != name || err != nil {
		t.Errorf("Reranker() = %q, %v", label, err)
	}
	hits, err := hitsOf(ctx, e, "the cat and the cell", 2) // the UI's search reranks when it can
	if err != nil || len(hits) != 2 || hits[0].RerankScore == nil || hits[0].ChunkID != res.Hits[0].ChunkID {
		t.Errorf("Search: %+v, %v", hits, err)
	}
}

// TestTwoEmbeddingModels: one tiny model serves English, another
// (of another size) the other languages. French chunks get vectors of the
// multilingual model, English ones of the English model; the default mode
// is hybrid because both languages are covered; a query is embedded by both
// and every hit says truthfully whether BM25 found it too.
func TestTwoEmbeddingModels(t *testing.T) {
	assetstest.Require(t, assets.ORT)
	ctx := context.Background()
	root := t.TempDir()
	install(t, root, "all-MiniLM-L6-v2", "encoder.onnx")
	install(t, root, models.DefaultMulti, "encoder_b.onnx")
	t.Setenv(models.EnvModelEN, "all-MiniLM-L6-v2")
	t.Setenv(models.EnvModelMulti, "") // the default, found installed

	e := newEngine(t, Config{ModelsRoot: root})
	if e.DenseUnavailable() != nil || e.multilingualUnavailable() != nil {
		t.Fatalf("models: %v; %v", e.DenseUnavailable(), e.multilingualUnavailable())
	}
	if got := e.embedders(); len(got) != 2 || got[0] != "all-MiniLM-L6-v2" || got[1] != models.DefaultMulti {
		t.Fatalf("embedders %v", got)
	}
	cats := mustAdd(t, e, "cats.pdf", catsPDF)
	cours := mustAdd(t, e, "cours.pdf", coursPDF)
	if cats.Lang != "en" || cours.Lang != "fr" {
		t.Fatalf("languages: cats %q, cours %q", cats.Lang, cours.Lang)
	}
	vecs := e.models.Load().ret.Vectors()
	if vecs["all-MiniLM-L6-v2"] != cats.Chunks || vecs[models.DefaultMulti] != cours.Chunks {
		t.Errorf("vectors %v; want %d English, %d French", vecs, cats.Chunks, cours.Chunks)
	}

	const q = "the cat and the cell"
	res, err := e.Search(ctx, retrieve.Query{Question: q}, SearchOptions{K: 50})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Mode != retrieve.ModeHybrid || len(res.Stats.Embedders) != 2 {
		t.Fatalf("stats %+v; want hybrid with both models", res.Stats)
	}
	bm25, err := e.Search(ctx, retrieve.Query{Question: q}, SearchOptions{Mode: retrieve.ModeBM25, K: 50})
	if err != nil {
		t.Fatal(err)
	}
	byBM25 := map[string]bool{}
	for _, h := range bm25.Hits {
		byBM25[h.ChunkID] = true
	}
	// Every chunk is among each model's dense candidates (fewer chunks
	// than the depth), so all are found by dense, and by both when BM25
	// matched them.
	docs := map[string]int{}
	for _, h := range res.Hits {
		want := retrieve.FoundDense
		if byBM25[h.ChunkID] {
			want = retrieve.FoundBoth
		}
		if h.FoundBy != want {
			t.Errorf("%s: found by %s, want %s", h.Label, h.FoundBy, want)
		}
		docs[h.File]++
	}
	t.Logf("vectors %v; hits per file %v; stats %+v", vecs, docs, res.Stats)
	if len(res.Hits) != cats.Chunks+cours.Chunks || docs["cours.pdf"] != cours.Chunks {
		t.Errorf("hits per file %v; want every chunk", docs)
	}
}

// TestMultilingualNotInstalled: without the multilingual model nothing
// extra is loaded, and a French document makes the default mode BM25.
func TestMultilingualNotInstalled(t *testing.T) {
	assetstest.Require(t, assets.ORT)
	root := t.TempDir()
	install(t, root, "all-MiniLM-L6-v2", "encoder.onnx")
	t.Setenv(models.EnvModelEN, "all-MiniLM-L6-v2")
	t.Setenv(models.EnvModelMulti, "")
	e := newEngine(t, Config{ModelsRoot: root})
	if got := e.embedders(); len(got) != 1 || e.multilingualUnavailable() != nil {
		t.Fatalf("embedders %v, %v", got, e.multilingualUnavailable())
	}
	mustAdd(t, e, "cours.pdf", coursPDF)
	res, err := e.Search(context.Background(), retrieve.Query{Question: "chat"}, SearchOptions{})
	if err != nil || res.Stats.Mode != retrieve.ModeBM25 {
		t.Errorf("French without a multilingual model: mode %q, %v", res.Stats.Mode, err)
	}
	// Named but not installed: an error says so; English still works.
	t.Setenv(models.EnvModelMulti, models.DefaultMulti)
	e2 := newEngine(t, Config{ModelsRoot: root})
	if e2.DenseUnavailable() != nil || e2.multilingualUnavailable() == nil || !strings.Contains(e2.multilingualUnavailable().Error(), "vika models download") {
		t.Errorf("named, not installed: %v; %v", e2.DenseUnavailable(), e2.multilingualUnavailable())
	}
}

// TestHitScores: each hit carries the score of each retriever that scored
// it for the query, nil for the other: hybrid hits their cosine (the same
// as in dense mode) and, when BM25 retrieved them, their BM25 score (the
// same as in bm25 mode); dense hits the question's BM25 score when its
// BM25 probe retrieved them (what an answer's abstention compares);
// bm25 hits no cosine. Stats.TopLexical is the best BM25 score of the
// question in every mode.
func TestHitScores(t *testing.T) {
	assetstest.Require(t, assets.ORT)
	ctx := context.Background()
	root := t.TempDir()
	install(t, root, "all-MiniLM-L6-v2", "encoder.onnx")
	t.Setenv(models.EnvModelEN, "all-MiniLM-L6-v2")
	t.Setenv(models.EnvModelMulti, "")
	e := newEngine(t, Config{ModelsRoot: root})
	mustAdd(t, e, "cats.pdf", catsPDF)

	const q = "photosynthesis turns light into energy"
	search := func(mode retrieve.Mode) SearchResult {
		t.Helper()
		res, err := e.Search(ctx, retrieve.Query{Question: q}, SearchOptions{Mode: mode, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Mode != mode || len(res.Hits) == 0 {
			t.Fatalf("%s: stats %+v, %d hits", mode, res.Stats, len(res.Hits))
		}
		return res
	}
	bm25, dense, hybrid := search(retrieve.ModeBM25), search(retrieve.ModeDense), search(retrieve.ModeHybrid)

	lexical := map[string]float64{}
	for _, h := range bm25.Hits {
		if h.LexicalScore == nil || *h.LexicalScore != h.Score || h.DenseScore != nil {
			t.Errorf("bm25 hit %s: score %g, lexical %v, dense %v", h.Label, h.Score, h.LexicalScore, h.DenseScore)
		}
		lexical[h.ChunkID] = h.Score
	}
	if bm25.Stats.TopLexical != bm25.Hits[0].Score || bm25.Stats.TopLexical <= 0 {
		t.Errorf("bm25: top lexical %g, best hit %g", bm25.Stats.TopLexical, bm25.Hits[0].Score)
	}

	cosine := map[string]float64{}
	for _, h := range dense.Hits {
		if h.DenseScore == nil || *h.DenseScore != h.Score {
			t.Errorf("dense hit %s: score %g, dense %v", h.Label, h.Score, h.DenseScore)
		}
		if want, byBM25 := lexical[h.ChunkID]; byBM25 && (h.LexicalScore == nil || *h.LexicalScore != want) {
			t.Errorf("dense hit %s: lexical %v, want the question's BM25 score %g", h.Label, h.LexicalScore, want)
		}
		cosine[h.ChunkID] = h.Score
	}
	if dense.Stats.TopLexical != bm25.Stats.TopLexical {
		t.Errorf("dense: top lexical %g, want %g as in bm25 mode (the question's BM25 probe)", dense.Stats.TopLexical, bm25.Stats.TopLexical)
	}

	denseOnly := 0
	for _, h := range hybrid.Hits {
		if h.DenseScore == nil || math.Abs(*h.DenseScore-cosine[h.ChunkID]) > 1e-6 {
			t.Errorf("hybrid hit %s: dense %v, want %g", h.Label, h.DenseScore, cosine[h.ChunkID])
		}
		want, byBM25 := lexical[h.ChunkID]
		switch {
		case byBM25 && (h.LexicalScore == nil || *h.LexicalScore != want || h.FoundBy != retrieve.FoundBoth):
			t.Errorf("hybrid hit %s (%s): lexical %v, want %g", h.Label, h.FoundBy, h.LexicalScore, want)
		case !byBM25 && (h.LexicalScore != nil || h.FoundBy != retrieve.FoundDense):
			t.Errorf("hybrid hit %s (%s): lexical %v, want none", h.Label, h.FoundBy, h.LexicalScore)
		case !byBM25:
			denseOnly++
		}
	}
	if denseOnly == 0 || denseOnly == len(hybrid.Hits) {
		t.Errorf("%d of %d hybrid hits found by dense only; want some of both kinds", denseOnly, len(hybrid.Hits))
	}
	if hybrid.Stats.TopLexical != bm25.Stats.TopLexical {
		t.Errorf("hybrid: top lexical %g, want %g as in bm25 mode", hybrid.Stats.TopLexical, bm25.Stats.TopLexical)
	}

	// The fusion asked for reaches retrieval, which reports it.
	if hybrid.Stats.Fusion != retrieve.FusionConvex {
		t.Errorf("hybrid by the profile: fusion %q, want convex", hybrid.Stats.Fusion)
	}
	rrf, err := e.Search(ctx, retrieve.Query{Question: q}, SearchOptions{Mode: retrieve.ModeHybrid, K: 10, Fusion: retrieve.FusionRRF})
	if err != nil || rrf.Stats.Fusion != retrieve.FusionRRF || len(rrf.Hits) == 0 {
		t.Errorf("hybrid with RRF: fusion %q, %d hits, %v", rrf.Stats.Fusion, len(rrf.Hits), err)
	}
}

// TestDenseUnavailableCoded: dense mode without an embedding model fails
// with a code the window translates, saying why none is loaded; keywords
// still search.
func TestDenseUnavailableCoded(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	mustAdd(t, e, "cats.pdf", catsPDF)
	_, err := e.Search(ctx, retrieve.Query{Question: "the cat"}, SearchOptions{Mode: retrieve.ModeDense})
	if m := message.Of(err); m.Code != message.SearchDenseUnavailable || !strings.Contains(fmt.Sprint(m.Params["detail"]), "embeddings are off") {
		t.Errorf("dense without a model: %v, message %+v", err, m)
	}
	if !errors.Is(err, retrieve.ErrNoEmbedder) || !strings.Contains(err.Error(), "dense search is unavailable") {
		t.Errorf("dense without a model: %v", err)
	}
	if res, err := e.Search(ctx, retrieve.Query{Question: "the cat"}, SearchOptions{Mode: retrieve.ModeBM25}); err != nil || len(res.Hits) == 0 {
		t.Errorf("bm25 without a model: %d hits, %v", len(res.Hits), err)
	}
}
