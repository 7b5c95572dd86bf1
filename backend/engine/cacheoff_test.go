package engine

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/assets"
	"vika/backend/cache"
	"vika/backend/testfs"
	"vika/backend/testpdf"
)

// TestCacheOffWritesNothing: with the setting off (the default), a whole
// session (add two PDFs, one of them scanned and OCRed, search, remove,
// close)
// writes nothing under the cache directory nor the data directory.
func TestCacheOffWritesNothing(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", filepath.Join(t.TempDir(), "cache"))
	cacheDir, err := cache.Dir()
	if err != nil {
		t.Fatal(err)
	}
	dataDir := assets.Dir()
	beforeCache, beforeData := testfs.Tree(t, filepath.Dir(cacheDir)), testfs.Tree(t, dataDir)

	ctx := context.Background()
	e, err := New(ctx, Config{})
	if err != nil {
		t.Fatal(err)
	}
	e.SetCache(nil) // the session's switch, off
	a := mustAdd(t, e, "stats.pdf", paperA)
	if _, err := docOf(e.Ingest(ctx, testpdf.SharedPDF(t, "schutz2017_these_p20-22_SCANNED_MADE_fr.pdf"), nil)); err != nil {
		t.Fatal(err)
	}
	if hits, err := hitsOf(ctx, e, "quagga", 3); err != nil || len(hits) == 0 {
		t.Fatalf("Search = %v, %v", hits, err)
	}
	if err := e.RemoveDocument(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(beforeCache, testfs.Tree(t, filepath.Dir(cacheDir))); diff != "" {
		t.Errorf("the cache dir changed (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(beforeData, testfs.Tree(t, dataDir)); diff != "" {
		t.Errorf("the data dir %s changed (-before +after):\n%s", dataDir, diff)
	}
	t.Logf("cache dir %s: %d files before and after; data dir %s: %d files before and after", cacheDir, len(beforeCache), dataDir, len(beforeData))
}
