package index

import (
	"context"
	"runtime"
	"testing"

	"vika/backend/eval"
	"vika/backend/eval/evaltest"
)

// BenchmarkIndexTermVectors indexes SciFact's test corpus (5,183
// abstracts) with and without term vectors, reporting the time per build,
// the heap the index holds after a GC and scorch's own MemoryUsed.
func BenchmarkIndexTermVectors(b *testing.B) {
	ds := evaltest.SciFact(b, "test")
	chunks := eval.Chunks(ds.Corpus)
	for _, tv := range []bool{false, true} {
		name := "off"
		if tv {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			old := termVectors
			termVectors = tv
			defer func() { termVectors = old }()
			var heap, scorch float64
			for i := 0; i < b.N; i++ {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				l, err := NewLexical()
				if err != nil {
					b.Fatal(err)
				}
				if err := l.Add(context.Background(), chunks); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				runtime.GC()
				runtime.ReadMemStats(&after)
				heap += float64(after.HeapAlloc) - float64(before.HeapAlloc)
				for _, s := range l.shards {
					if a, err := s.idx.Advanced(); err == nil {
						if m, ok := a.(interface{ MemoryUsed() uint64 }); ok {
							scorch += float64(m.MemoryUsed())
						}
					}
				}
				l.Close()
				b.StartTimer()
			}
			b.ReportMetric(heap/float64(b.N)/1e6, "heapMB")
			b.ReportMetric(scorch/float64(b.N)/1e6, "scorchMB")
		})
	}
}
