package engine

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/assets"
	"vika/backend/cache"
	"vika/backend/testpdf"
)

// listing is every file under dir with its size and modification time
// (nil when dir does not exist).
func listing(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[path] = fmt.Sprint(fi.Mode(), " ", fi.ModTime(), " ", fi.Size())
		return nil
	})
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

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
	beforeCache, beforeData := listing(t, filepath.Dir(cacheDir)), listing(t, dataDir)

	ctx := context.Background()
	e, err := New(ctx, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Remember(ctx, false, 0, nil); err != nil {
		t.Fatal(err)
	}
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
	if diff := cmp.Diff(beforeCache, listing(t, filepath.Dir(cacheDir))); diff != "" {
		t.Errorf("the cache dir changed (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(beforeData, listing(t, dataDir)); diff != "" {
		t.Errorf("the data dir %s changed (-before +after):\n%s", dataDir, diff)
	}
	t.Logf("cache dir %s: %d files before and after; data dir %s: %d files before and after", cacheDir, len(beforeCache), dataDir, len(beforeData))
}
