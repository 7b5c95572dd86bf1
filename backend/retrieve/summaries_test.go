package retrieve

import (
	"context"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/index"
)

// TestSummaryListFindsThePassage: a question that shares no word with a
// passage, only with the summary a model wrote of it, finds the passage
// itself (its id, ViaSummary) through the summary list, in hybrid and
// dense mode, not in bm25 mode; without summaries the same question does
// not find it (what the summary index adds), and a deleted document's
// summaries go with it.
func TestSummaryListFindsThePassage(t *testing.T) {
	ctx := context.Background()
	r, emb := newTestRetriever(t, nil)
	q := "hadrons confinement strong force"
	for _, mode := range []Mode{ModeHybrid, ModeDense} {
		res, err := r.Search(ctx, q, SearchOptions{Mode: mode, K: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if h.ChunkID == "c3" {
				t.Fatalf("%s: c3 found before any summary: %v", mode, hitIDs(res.Hits))
			}
		}
		if res.Stats.SummaryCandidates != 0 {
			t.Fatalf("%s: a summary list without summaries: %+v", mode, res.Stats)
		}
	}
	calls := emb.calls
	if _, err := r.Search(ctx, q, SearchOptions{Mode: ModeHybrid, K: 3}); err != nil || emb.calls != calls+1 {
		t.Fatalf("a search without summaries embedded the question %d times (want 1), err %v", emb.calls-calls, err)
	}

	sum := corpus.Chunk{ID: "c3", DocID: "d2", Lang: "en", Text: "How the strong force binds hadrons: confinement."}
	vecs, err := r.Embed(ctx, []corpus.Chunk{sum}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.AddSummaries([]corpus.Chunk{sum}, vecs); err != nil {
		t.Fatal(err)
	}
	if r.SummaryVectors() != 1 {
		t.Fatalf("summary vectors: %d", r.SummaryVectors())
	}
	// Hybrid: the dense list ranked c3 low, its summary ranks it first. Dense
	// mode (a diagnostic mode) cut its list at k, without c3: the summary
	// list alone brings it, just after the first hit (as the figure list).
	for mode, at := range map[Mode]int{ModeHybrid: 0, ModeDense: 1} {
		res, err := r.Search(ctx, q, SearchOptions{Mode: mode, K: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) <= at || res.Hits[at].ChunkID != "c3" || !res.Hits[at].ViaSummary || res.Stats.ViaSummary != 1 || res.Stats.SummaryCandidates == 0 {
			t.Fatalf("%s: hits %v, %+v, stats %+v", mode, hitIDs(res.Hits), res.Hits, res.Stats)
		}
		if mode == ModeDense && (res.Hits[at].FoundBy != FoundSummary || res.Stats.FoundBy.Summary != 1) {
			t.Fatalf("dense: c3 found by %q, counts %+v", res.Hits[at].FoundBy, res.Stats.FoundBy)
		}
	}
	res, err := r.Search(ctx, q, SearchOptions{Mode: ModeBM25, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.SummaryCandidates != 0 || len(res.Hits) > 0 && res.Hits[0].ChunkID == "c3" {
		t.Fatalf("bm25 mode used the summary list: %v %+v", hitIDs(res.Hits), res.Stats)
	}
	if res, _ := r.Search(ctx, q, SearchOptions{Mode: ModeHybrid, K: 3, SummaryDepth: -1}); len(res.Hits) > 0 && res.Hits[0].ChunkID == "c3" {
		t.Fatalf("a summary list turned off still ranked: %v", hitIDs(res.Hits))
	}
	// Scoped to another document, the summary does not leak in.
	res, err = r.Search(ctx, q, SearchOptions{Mode: ModeHybrid, K: 3, Scope: corpus.Scope{Docs: []string{"d1"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if h.ChunkID == "c3" {
			t.Fatalf("a scoped search found another document's summary: %v", hitIDs(res.Hits))
		}
	}
	if err := r.DeleteDoc(ctx, "d2"); err != nil {
		t.Fatal(err)
	}
	if r.SummaryVectors() != 0 {
		t.Fatalf("a deleted document kept %d summary vectors", r.SummaryVectors())
	}
}

// TestFuseExtraKeepsFigures: the figure list alone fuses as before the
// summary list existed (fuseFigures' scores and order), and a passage
// both extra lists found becomes one candidate with both ranks.
func TestFuseExtraKeepsFigures(t *testing.T) {
	cands := []*candidate{{id: "a", lexicalRank: 1}, {id: "b", lexicalRank: 2}}
	figs := []index.Scored{{ChunkID: "f"}, {ChunkID: "b"}}
	got := fuseFigures(cands, figs)
	ids := []string{}
	for _, c := range got {
		ids = append(ids, c.id)
	}
	if want := "b a f"; strings.Join(ids, " ") != want {
		t.Fatalf("figures fused: %v, want %s", ids, want)
	}
	both := fuseExtra(cands, summaryExtra([]index.Scored{{ChunkID: "f"}}, SummaryWeight), figureExtra([]index.Scored{{ChunkID: "f"}}))
	n := 0
	for _, c := range both {
		if c.id == "f" {
			n++
			if c.summaryRank != 1 || c.figureRank != 1 {
				t.Fatalf("f: %+v", c)
			}
		}
	}
	if n != 1 || both[0].id != "f" {
		t.Fatalf("f %d times, first %s", n, both[0].id)
	}
}
