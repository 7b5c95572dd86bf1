//go:build tune

package eval

import (
	"context"
	"fmt"
	"testing"

	"vika/backend/chunk"
)

// TestPagesChunkSweep measures BM25 at the page level for chunk sizes and
// overlaps (the table of docs/eval/CHUNKING.md). An experiment, not a check: it
// builds only with the tag "tune" (`make test` vets it). Run it with
//
//	go test -tags tune ./backend/eval -run TestPagesChunkSweep -v -timeout 30m
func TestPagesChunkSweep(t *testing.T) {
	docs := sharedDocs(t)
	qs, err := firstSet() // the set docs/eval/CHUNKING.md measured
	if err != nil {
		t.Fatal(err)
	}
	var misses []string
	t.Logf("| target | overlap (asked) | overlap (used) | chunks | file hit@5 | file MRR | corpus hit@5 | corpus MRR |")
	t.Logf("|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, target := range []int{400, 600, 900, 1200, 1600} {
		for _, overlap := range []int{-1, 100, chunk.DefaultOverlap, 200} {
			opts := chunk.Options{Target: target, Overlap: overlap}
			b := newBM25Pages(t, docs, opts)
			var score [2]PageScore
			var missed [2][]string
			for i, scope := range []string{scopeFile, scopeCorpus} {
				rep, err := Pages(context.Background(), qs, b.retriever(scope))
				if err != nil {
					t.Fatal(err)
				}
				score[i] = rep.Overall
				for _, r := range rep.Failures() {
					missed[i] = append(missed[i], r.ID)
				}
			}
			b.close()
			t.Logf("| %d | %d | %d | %d | %.3f (%d) | %.3f | %.3f (%d) | %.3f |", target, max(overlap, 0), min(max(overlap, 0), target/3),
				b.chunks, score[0].HitAt5, score[0].Hits, score[0].MRR, score[1].HitAt5, score[1].Hits, score[1].MRR)
			misses = append(misses, fmt.Sprintf("%d/%d: file %v; corpus %v", target, max(overlap, 0), missed[0], missed[1]))
		}
	}
	for _, m := range misses {
		t.Logf("missed at hit@5, %s", m)
	}
}
