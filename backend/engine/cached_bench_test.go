package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vika/backend/cache"
	"vika/backend/sharedtest"
)

// sharedPDFs are the paths of the shared data set's PDFs (the test is
// skipped when the set is absent).
func sharedPDFs(tb testing.TB) []string {
	paths, err := sharedtest.Manifest()
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, p := range paths {
		if strings.HasPrefix(p, "pdfs/") && strings.HasSuffix(p, ".pdf") {
			out = append(out, sharedtest.Require(tb, p))
		}
	}
	return out
}

// addAll adds every path to a new session with the cache c until each is
// searchable with its vectors, and returns the time it took, the session's
// vector count and how many adds came from the cache.
func addAll(b *testing.B, c *cache.Cache, paths []string) (time.Duration, int, int) {
	e, err := New(context.Background(), Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	e.SetCache(c)
	start := time.Now()
	hits := 0
	for _, p := range paths {
		r, err := e.Ingest(context.Background(), p, nil)
		if err != nil {
			b.Fatalf("%s: %v", filepath.Base(p), err)
		}
		if r.Cached {
			hits++
		}
	}
	took := time.Since(start)
	vecs := 0
	for _, n := range e.models.Load().ret.Vectors() {
		vecs += n
	}
	return took, vecs, hits
}

// BenchmarkCacheColdWarm adds the ten shared PDFs to a session with an
// empty cache (cold: read, OCR, embed, and keep), then to a new session
// from that cache (warm), in each iteration, and reports the ratio of
// their wall times (warm/cold), the warm hits and the cache's size on
// disk. Run it once: go test -run ^$ -bench CacheColdWarm -benchtime 1x.
func BenchmarkCacheColdWarm(b *testing.B) {
	onlyInstalledModels(b)
	paths := sharedPDFs(b)
	var cold, warm time.Duration
	var size int64
	var hits int
	for range b.N {
		dir := b.TempDir()
		c, err := cache.Open(context.Background(), dir, cache.Options{})
		if err != nil {
			b.Fatal(err)
		}
		tc, vc, _ := addAll(b, c, paths)
		tw, vw, h := addAll(b, c, paths)
		if vw != vc || vc == 0 {
			b.Fatalf("vectors: cold %d, warm %d", vc, vw)
		}
		in, _ := c.Info(context.Background())
		c.Close()
		fi, err := os.Stat(filepath.Join(dir, cache.FileName))
		if err != nil {
			b.Fatal(err)
		}
		cold, warm, size, hits = cold+tc, warm+tw, fi.Size(), h
		b.Logf("cold %v, warm %v (%d of %d from the cache), %d vectors, %d entries, %.1f MB",
			tc, tw, h, len(paths), vc, in.Entries, float64(fi.Size())/1e6)
	}
	b.ReportMetric(cold.Seconds()/float64(b.N), "cold-s")
	b.ReportMetric(warm.Seconds()/float64(b.N), "warm-s")
	b.ReportMetric(float64(warm)/float64(cold), "warm/cold")
	b.ReportMetric(float64(hits), "hits")
	b.ReportMetric(float64(size)/1e6, "cache-MB")
}
