package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/cache"
	"vika/backend/ingest"
	"vika/backend/kept"
	"vika/backend/message"
	"vika/backend/testfs"
)

func openCache(t *testing.T, dir string) *cache.Cache {
	t.Helper()
	c, err := cache.Open(context.Background(), dir, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// addReport adds data under name and returns what the add reported.
func addReport(t *testing.T, e *Engine, name string, data []byte) Report {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := e.Ingest(context.Background(), path, nil)
	if err != nil {
		t.Fatalf("add %s: %v", name, err)
	}
	return r
}

// TestCacheHitSkipsTheWork: a second session with the same cache gets the
// same document, pages, chunks and hits without running the pipeline; a
// different setting (no regions) is a miss; the cache off keeps nothing.
func TestCacheHitSkipsTheWork(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c := openCache(t, dir)

	cold := newEngine(t, Config{})
	cold.SetCache(c)
	r1 := addReport(t, cold, "stats.pdf", paperA)
	if r1.Cached {
		t.Fatal("first add came from an empty cache")
	}
	warm := newEngine(t, Config{})
	warm.SetCache(c)
	r2 := addReport(t, warm, "renamed.pdf", paperA)
	if !r2.Cached || r2.Timings.Extract != 0 {
		t.Fatalf("second add: cached %v, extract %.3fs", r2.Cached, r2.Timings.Extract)
	}
	if r2.Doc.File != "renamed.pdf" || r2.Doc.Label != "renamed.pdf" {
		t.Errorf("cached document keeps its old name: %+v", r2.Doc)
	}
	ignoreNames := cmp.FilterPath(func(p cmp.Path) bool {
		s := p.Last().String()
		return s == ".File" || s == ".Label" || s == ".AddedAt"
	}, cmp.Ignore())
	if diff := cmp.Diff(r1.Doc, r2.Doc, ignoreNames); diff != "" {
		t.Errorf("document (-cold +warm):\n%s", diff)
	}
	p1, _ := cold.Pages(ctx, r1.Doc.ID)
	p2, _ := warm.Pages(ctx, r2.Doc.ID)
	if diff := cmp.Diff(p1, p2); diff != "" {
		t.Errorf("pages (-cold +warm):\n%s", diff)
	}
	h1, err1 := hitsOf(ctx, cold, "quagga savannah", 3)
	h2, err2 := hitsOf(ctx, warm, "quagga savannah", 3)
	if err1 != nil || err2 != nil || len(h1) == 0 {
		t.Fatalf("Search: %v, %v", err1, err2)
	}
	ignoreLabels := cmp.FilterPath(func(p cmp.Path) bool {
		s := p.Last().String()
		return s == ".File" || s == ".Label"
	}, cmp.Ignore())
	if diff := cmp.Diff(h1, h2, ignoreLabels); diff != "" {
		t.Errorf("hits (-cold +warm):\n%s", diff)
	}
	if cold.DenseUnavailable() == nil {
		in, _ := c.Info(ctx)
		if in.Entries != 2 { // the document and its vectors
			t.Errorf("entries = %d, want document + vectors", in.Entries)
		}
	}

	other := newEngine(t, Config{NoRegions: true})
	other.SetCache(c)
	if r := addReport(t, other, "stats.pdf", paperA); r.Cached {
		t.Error("a session without region detection took the cached document")
	}

	off := newEngine(t, Config{})
	before, _ := c.Info(ctx)
	addReport(t, off, "info.pdf", paperB)
	if after, _ := c.Info(ctx); after.Entries != before.Entries {
		t.Errorf("a session with the cache off wrote %d entries", after.Entries-before.Entries)
	}
	if has, _ := c.Has(ctx, r1.Doc.ID); !has {
		t.Error("document not cached")
	}
}

// TestCacheDamagedEntryIsRebuilt: a flipped byte in the cached document
// is a miss: the PDF is processed again, the entry rewritten.
func TestCacheDamagedEntryIsRebuilt(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c := openCache(t, dir)
	e := newEngine(t, Config{})
	e.SetCache(c)
	d := addReport(t, e, "stats.pdf", paperA).Doc
	c.Close()
	testfs.FlipByte(t, filepath.Join(dir, cache.FileName), []byte("plains zebra, or quagga"))

	var notices []string
	c2, err := cache.Open(ctx, dir, cache.Options{Notice: func(m message.Message) { notices = append(notices, m.Code) }})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	e2 := newEngine(t, Config{})
	e2.SetCache(c2)
	r := addReport(t, e2, "stats.pdf", paperA)
	if r.Cached || len(notices) == 0 {
		t.Fatalf("a damaged entry was used (cached %v, notices %v)", r.Cached, notices)
	}
	pages, _ := e2.Pages(ctx, d.ID)
	if len(pages) != 2 || pages[1].Text == "" {
		t.Errorf("pages after rebuild: %+v", pages)
	}
	e3 := newEngine(t, Config{})
	e3.SetCache(c2)
	if r := addReport(t, e3, "stats.pdf", paperA); !r.Cached {
		t.Error("the entry was not rebuilt")
	}
}

// TestCacheEntryOutOfBoundsIsAMiss: a well-formed entry (its checksum
// right, as another process could write it) whose pages break an ingest's
// budgets, or belong to another document, is not taken: the PDF is
// processed again.
func TestCacheEntryOutOfBoundsIsAMiss(t *testing.T) {
	ctx := context.Background()
	c := openCache(t, t.TempDir())
	e := newEngine(t, Config{})
	e.SetCache(c)
	addReport(t, e, "stats.pdf", paperA)
	k := cache.Key{Doc: ingest.DocID(paperA), Setup: e.setup(), Part: cache.PartDocument}
	var good kept.Document
	if ok, err := c.Get(ctx, k, &good); !ok || err != nil {
		t.Fatalf("no entry to forge from: %v", err)
	}
	for name, forge := range map[string]func(cd *kept.Document){
		"a page over its characters": func(cd *kept.Document) {
			cd.Pages[0].Text = strings.Repeat("x", ingest.MaxPageChars+1)
		},
		"a page of another document": func(cd *kept.Document) { cd.Pages[1].DocID = "another" },
	} {
		cd := good
		cd.Pages = slices.Clone(good.Pages)
		forge(&cd)
		if err := c.Put(ctx, k, cd); err != nil {
			t.Fatal(err)
		}
		fresh := newEngine(t, Config{})
		fresh.SetCache(c)
		if r := addReport(t, fresh, "stats.pdf", paperA); r.Cached {
			t.Errorf("%s: the entry was taken", name)
		}
		pages, _ := fresh.Pages(ctx, k.Doc)
		if len(pages) != 2 || len(pages[0].Text) > ingest.MaxPageChars || pages[1].DocID != k.Doc {
			t.Errorf("%s: pages after the miss are the forged ones", name)
		}
	}
}
