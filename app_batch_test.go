package main

import (
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/docserve"
)

// TestBatch: Pages and Chunks answer a bounded run at a time (500 items,
// about 4 MB, one item at least), and reading from each Next covers every
// item once. Before, one reply carried the whole document.
func TestBatch(t *testing.T) {
	size := func(s string) int { return len(s) }
	for _, c := range []struct {
		name  string
		items []string
		runs  int
	}{
		{"empty", nil, 0},
		{"a small document", make([]string, 12), 1},
		{"many pages", make([]string, 1201), 3},
		{"pages of a megabyte", []string{strings.Repeat("a", 1<<20), strings.Repeat("b", 1<<20), strings.Repeat("c", 1<<20), strings.Repeat("d", 1<<20), strings.Repeat("e", 1<<20)}, 2},
		{"one item over the bytes", []string{strings.Repeat("a", 5<<20), "b"}, 2},
	} {
		seen, runs := 0, 0
		for offset := 0; offset < len(c.items); runs++ {
			run, next := batch(c.items, offset, size)
			bytes := 0
			for _, s := range run {
				bytes += len(s)
			}
			if len(run) == 0 || len(run) > batchItems || bytes > batchBytes && len(run) > 1 || next != offset+len(run) {
				t.Fatalf("%s: run of %d items, %d bytes, next %d from %d", c.name, len(run), bytes, next, offset)
			}
			seen += len(run)
			offset = next
		}
		if seen != len(c.items) || runs != c.runs {
			t.Errorf("%s: %d items in %d runs, want %d in %d", c.name, seen, runs, len(c.items), c.runs)
		}
	}
	if run, next := batch(make([]string, 3), 9, size); len(run) != 0 || next != 3 {
		t.Errorf("past the end: %d items, next %d", len(run), next)
	}
}

// TestRegionBatches: a document's regions are answered run after run like
// its pages (before, Regions sent them all in one reply), and each figure
// keeps the crop address its page's order gives it whichever run it is
// in.
func TestRegionBatches(t *testing.T) {
	var rs []corpus.Region
	for page := 1; page <= 30; page++ {
		for i := range 40 {
			r := corpus.Region{Kind: corpus.ChunkFigure, Page: page, Caption: "Figure"}
			if i%2 == 0 {
				r.Image = []byte{1}
			}
			rs = append(rs, r)
		}
	}
	views := regionViews("doc", rs)
	var read []RegionView
	runs := 0
	for offset := 0; offset < len(views); runs++ {
		run, next := batch(views, offset, regionSize)
		read = append(read, run...)
		offset = next
	}
	if runs != 3 || len(read) != 1200 {
		t.Fatalf("%d regions in %d runs, want 1200 in 3", len(read), runs)
	}
	// Region 41 is page 2's second region (no crop), 42 its third: the
	// page's second crop.
	if read[41].Image != "" || read[42].Image != docserve.CropURL("doc", 2, 1) {
		t.Errorf("crop addresses %q, %q", read[41].Image, read[42].Image)
	}
	if last := read[1198]; last.Image != docserve.CropURL("doc", 30, 19) {
		t.Errorf("the last crop's address %q", last.Image)
	}
}
