package embed_test

import (
	"context"
	"testing"

	"vika/backend/assets/assetstest"
	"vika/backend/embed"
	"vika/backend/models"
)

// BenchmarkBoxEmbedders embeds the same 64 SciFact abstracts (about 1,500
// characters, a PDF passage's length) with USE-lite and with each embedder
// of the box, one after the other in each iteration, so that their
// passages/s compare in the same run on a shared machine:
//
//	go test -tags webkit2_41 -run '^$' -bench BoxEmbedders -benchtime 3x ./backend/embed/
func BenchmarkBoxEmbedders(b *testing.B) {
	texts := scifactPassages(b, 64)
	ctx := context.Background()
	use, err := embed.LoadUSELite(embed.RequireOptions(b))
	if err != nil {
		b.Fatal(err)
	}
	defer use.Close()
	embedders := []embed.Embedder{use}
	for _, name := range []string{"bge-small-en-v1.5", "multilingual-e5-small", "all-MiniLM-L6-v2"} {
		m := assetstest.RequireBox(b, name)
		o, err := embed.BERTOptionsFor(models.Root(), m)
		if err != nil {
			b.Fatal(err)
		}
		e, err := embed.LoadBERT(o)
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		embedders = append(embedders, e)
	}
	for _, e := range embedders {
		b.Run(e.Name(), func(b *testing.B) {
			for b.Loop() {
				if _, err := e.Embed(ctx, texts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "passages/s")
		})
	}
}
