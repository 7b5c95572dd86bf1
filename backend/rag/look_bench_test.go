package rag

import (
	"context"
	"testing"

	"vika/backend/engine"
	"vika/backend/retrieve"
	"vika/backend/testpdf"
)

// BenchmarkPicturesFor measures choosing the crops of an answer over the
// ResNet paper (its detected tables and figures, from the store) against
// the retrieval that precedes it, in the same run:
//
//	go test -tags webkit2_41 -run '^$' -bench PicturesFor ./backend/rag
func BenchmarkPicturesFor(b *testing.B) {
	path := testpdf.SharedPDF(b, "he2015_resnet.pdf")
	eng, err := engine.New(context.Background(), engine.Config{NoEmbeddings: true, ModelsRoot: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { eng.Close() })
	if _, err := docOf(eng.Ingest(context.Background(), path, nil)); err != nil {
		b.Fatal(err)
	}
	const question = "What does Figure 4 show about plain and residual networks on ImageNet?"
	q := retrieve.Query{Question: question}
	o := engine.SearchOptions{Mode: "bm25", K: DefaultK}
	res, err := eng.Search(b.Context(), q, o)
	if err != nil {
		b.Fatal(err)
	}
	srcs := sourcesOf(retrieval{hits: res.Hits})
	b.Run("retrieve", func(b *testing.B) {
		for b.Loop() {
			if _, err := eng.Search(b.Context(), q, o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pictures", func(b *testing.B) {
		n := 0
		for b.Loop() {
			n = len(picturesFor(b.Context(), eng, question, srcs))
		}
		b.ReportMetric(float64(n), "images")
	})
}
