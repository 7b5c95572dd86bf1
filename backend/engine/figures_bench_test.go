package engine

import (
	"context"
	"testing"
	"time"

	"vika/backend/ingest"
	"vika/backend/models/modelstest"
	"vika/backend/retrieve"
)

// benchEngines returns two sessions, without CLIP and with the tiny CLIP of
// testdata/clip.
func benchEngines(b *testing.B) (off, on *Engine) {
	onlyInstalledModels(b)
	offRoot, onRoot := b.TempDir(), b.TempDir()
	modelstest.InstallCLIP(b, onRoot)
	mk := func(root string) *Engine {
		e, err := New(context.Background(), Config{ModelsRoot: root})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { e.Close() })
		return e
	}
	return mk(offRoot), mk(onRoot)
}

// BenchmarkIngestFigures adds the three-figure PDF to a session without
// CLIP and to one with the tiny CLIP, alternately in every iteration, and
// reports the ratio of their times (on/off): what computing the figures'
// image vectors adds to an ingest. The tiny model costs next to nothing
// itself: the ratio is the cost of decoding, resizing and running the
// crops through ONNX Runtime, not of a real CLIP.
func BenchmarkIngestFigures(b *testing.B) {
	off, on := benchEngines(b)
	data := figuresPDF(b)
	id := ingest.DocID(data)
	ctx := context.Background()
	var tOff, tOn time.Duration
	add := func(e *Engine) time.Duration {
		start := time.Now()
		if _, err := docOf(e.add(ctx, "", "figures.pdf", data, nil)); err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		if err := e.RemoveDocument(ctx, id); err != nil {
			b.Fatal(err)
		}
		return took
	}
	b.ResetTimer()
	for range b.N {
		tOff += add(off)
		tOn += add(on)
	}
	b.ReportMetric(float64(tOff.Nanoseconds())/float64(b.N), "off-ns/op")
	b.ReportMetric(float64(tOn.Nanoseconds())/float64(b.N), "on-ns/op")
	b.ReportMetric(float64(tOn)/float64(tOff), "on/off")
}

// BenchmarkSearchFigures runs one hybrid question in both sessions,
// alternately, and reports the ratio of their latencies (with the figure
// list / without).
func BenchmarkSearchFigures(b *testing.B) {
	off, on := benchEngines(b)
	data := figuresPDF(b)
	ctx := context.Background()
	for _, e := range []*Engine{off, on} {
		if _, err := docOf(e.add(ctx, "", "figures.pdf", data, nil)); err != nil {
			b.Fatal(err)
		}
	}
	o := SearchOptions{Mode: retrieve.ModeHybrid, K: 10}
	const q = "the bar chart of the error rate of each network"
	var tOff, tOn time.Duration
	search := func(e *Engine) time.Duration {
		start := time.Now()
		if _, err := e.Search(ctx, retrieve.Query{Question: q}, o); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	b.ResetTimer()
	for range b.N {
		tOff += search(off)
		tOn += search(on)
	}
	b.ReportMetric(float64(tOff.Nanoseconds())/float64(b.N), "off-ns/op")
	b.ReportMetric(float64(tOn.Nanoseconds())/float64(b.N), "on-ns/op")
	b.ReportMetric(float64(tOn)/float64(tOff), "on/off")
}
