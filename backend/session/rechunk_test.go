package session

import (
	"context"
	"slices"
	"strings"
	"testing"

	"vika/backend/chunk"
	"vika/backend/engine"
)

// TestRechunkAll: RechunkAll cuts every document again with the chunking
// in force, one after the other, and tells its progress on EventRechunk
// (0 of 2, 1 of 2, 2 of 2): the window's "Re-chunk the documents already
// added".
func TestRechunkAll(t *testing.T) {
	h := &heard{}
	s := open(t, "", h)
	ctx := context.Background()
	long := strings.Repeat(satText+" ", 12)
	var ids []string
	for _, name := range []string{"a.pdf", "b.pdf"} {
		id := s.StartFile(writePDF(t, name, name+" "+long))
		evs := h.wait(t, name+" added", func(ev event) bool {
			p, ok := ev.payload.(engine.Progress)
			return ok && p.JobID == id && p.Stage == engine.StageDone
		})
		ids = append(ids, lastOf(evs, id).Doc.ID)
	}
	before := map[string]int{}
	for _, id := range ids {
		cs, err := s.Chunks(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		before[id] = len(cs)
	}
	s.SetChunking(chunk.Options{Target: 200, Overlap: 0})
	n, err := s.RechunkAll(ctx)
	if err != nil || n != 2 {
		t.Fatalf("RechunkAll = %d, %v", n, err)
	}
	for _, id := range ids {
		cs, err := s.Chunks(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) <= before[id] {
			t.Errorf("%s: %d passages after cutting into 200 characters, %d before", id, len(cs), before[id])
		}
	}
	var got []RechunkProgress
	h.mu.Lock()
	for _, e := range h.evs {
		if p, ok := e.payload.(RechunkProgress); ok && e.name == EventRechunk {
			got = append(got, p)
		}
	}
	h.mu.Unlock()
	if want := []RechunkProgress{{0, 2}, {1, 2}, {2, 2}}; !slices.Equal(got, want) {
		t.Errorf("progress %v, want %v", got, want)
	}
}
