//go:build tune

package retrieve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"vika/backend/corpus"
	"vika/backend/index"
)

// The cost of sentence vectors (TestSentenceSignal), measured against
// what the shipped search does in the same run.

// BenchmarkSentenceCost times, at 10,000 passages of 5.2 sentences each
// (the mean of the English evaluation PDFs), the dense step of a hybrid
// search (the 1,000 nearest of 10,000 chunk vectors) against the two ways
// of scoring sentences: the cosines of the sentences of 2,000 candidates
// (the union of the hybrid lists), and a flat search of every sentence
// vector. Unit vectors of USE-lite's dimension, seeded.
//
//	go test -tags "tune webkit2_41" -run '^$' -bench SentenceCost -count 3 ./backend/retrieve
func BenchmarkSentenceCost(b *testing.B) {
	const chunks, perTen, dim = 10000, 52, 512 // 5.2 sentences a chunk
	rng := rand.New(rand.NewPCG(1, 2))
	vec := func() []float32 {
		v := make([]float64, dim)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		return toUnit(v, dim)
	}
	cd, sd := index.NewDense(dim), index.NewDense(dim)
	var cs, ss []corpus.Chunk
	var cv, sv [][]float32
	var candSents []string
	for i := range chunks {
		id := fmt.Sprintf("c%d", i)
		cs, cv = append(cs, corpus.Chunk{ID: id, DocID: "d"}), append(cv, vec())
		n := perTen / 10
		if i%5 == 0 {
			n++ // 5.2 on average
		}
		for j := range n {
			sid := fmt.Sprintf("%s.%d", id, j)
			ss, sv = append(ss, corpus.Chunk{ID: sid, DocID: "d"}), append(sv, vec())
			if i < 2000 {
				candSents = append(candSents, sid)
			}
		}
	}
	if err := cd.Add(cs, cv); err != nil {
		b.Fatal(err)
	}
	if err := sd.Add(ss, sv); err != nil {
		b.Fatal(err)
	}
	b.Logf("%d chunk vectors, %d sentence vectors (%.0f MB of float32), %d sentences of 2,000 candidates", len(cv), len(sv), float64(len(sv)*dim*4)/1e6, len(candSents))
	q := vec()
	ctx := context.Background()
	b.Run("chunks-nearest-1000", func(b *testing.B) {
		for b.Loop() {
			if _, err := cd.Search(ctx, q, 1000); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sentences-of-candidates", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := sd.Similarity(q, candSents); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sentences-flat-1000", func(b *testing.B) {
		for b.Loop() {
			if _, err := sd.Search(ctx, q, 1000); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestSentenceEmbedCost times the embedding of Shannon's cached
// chunks as ingest does it (pieces of up to 128 tokens, averaged), of its
// sentences one by one and of its lines' sentences (linePieces), in turn,
// three times each, in one process:
//
//	VIKA_DIAG_CACHE=DIR go test -count=1 -tags "tune webkit2_41" -run TestSentenceEmbedCost -v ./backend/retrieve
func TestSentenceEmbedCost(t *testing.T) {
	dir, file := os.Getenv("VIKA_DIAG_CACHE"), "shannon1948_mathematical_theory_of_communication.pdf"
	if dir == "" {
		t.Fatal("a measurement run by hand (command above; docs/eval/PAGES.md, fifth round): set VIKA_DIAG_CACHE to a `vika eval pages --cache` dir")
	}
	paths, _ := filepath.Glob(filepath.Join(dir, file+".*.use-lite.regions.gob"))
	if len(paths) != 1 {
		t.Fatalf("%s: cache %v", file, paths)
	}
	var dc diagCache
	readGob(t, paths[0], &dc)
	emb := diagEmbedder(t)
	var texts, lines []string
	for _, ch := range dc.Result.Chunks {
		if inDense(ch) {
			texts = append(texts, ch.Text)
			lines = append(lines, linePieces(ch.Text)...)
		}
	}
	ctx := context.Background()
	for round := range 3 {
		for _, p := range []struct {
			name  string
			p     Passage
			texts []string
		}{
			{"chunks (128-token pieces)", Passage{MaxTokens: 128}, texts},
			{"sentences", Passage{PerSentence: true, MaxTokens: 128}, texts},
			{"lines, then sentences", Passage{PerSentence: true, MaxTokens: 128}, lines},
		} {
			start := time.Now()
			if _, err := EmbedPassages(ctx, emb, p.p, p.texts, EmbedOptions{}); err != nil {
				t.Fatal(err)
			}
			fmt.Printf("EMBED round %d %-26s %d chunks: %v\n", round+1, p.name, len(texts), time.Since(start).Round(time.Millisecond))
		}
	}
}
