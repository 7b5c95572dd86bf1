package embed_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sync"
	"testing"

	"vika/backend/embed"
	"vika/backend/retrieve"
	"vika/backend/sharedtest"
)

// pieceRecorder is an embedder that records the texts it is given.
type pieceRecorder struct {
	*embed.USELite
	mu     sync.Mutex
	pieces []string // guarded by mu
}

func (r *pieceRecorder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	r.mu.Lock()
	r.pieces = append(r.pieces, texts...)
	r.mu.Unlock()
	return r.USELite.Embed(ctx, texts)
}

// scifactPassages returns the first n SciFact abstracts (title and text:
// about 1,500 characters, as long as a passage of a PDF).
func scifactPassages(b testing.TB, n int) []string {
	f, err := os.Open(sharedtest.Require(b, "scifact/corpus.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() && len(out) < n {
		var d struct{ Title, Text string }
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			b.Fatal(err)
		}
		out = append(out, d.Title+". "+d.Text)
	}
	return out
}

// BenchmarkEmbedPassages measures passages per second on 128 SciFact
// abstracts, for thread counts and batch sizes: "windows" is the
// passage path (retrieve.EmbedPassages with the profile's 128-token
// windows, their vectors averaged), "truncated" embeds each passage
// whole (the model reads its first 128 tokens), and "ort" feeds the
// windows' tensors, made once, straight to ONNX Runtime in the same
// batches. windows/ort is the cost of tokenizing, batching and averaging;
// windows/truncated the cost of reading the whole passage.
// go test -tags webkit2_41 -run '^$' -bench BenchmarkEmbedPassages ./backend/embed/
func BenchmarkEmbedPassages(b *testing.B) {
	texts := scifactPassages(b, 128)
	base := embed.RequireOptions(b)
	ctx := context.Background()
	for _, threads := range []int{1, 2} {
		for _, batch := range []int{16, 32, 64} {
			o := base
			o.Threads, o.BatchSize = threads, batch
			e, err := embed.LoadUSELite(o)
			if err != nil {
				b.Fatal(err)
			}
			rec := &pieceRecorder{USELite: e}
			if _, err := retrieve.EmbedPassages(ctx, rec, retrieve.Passage{MaxTokens: 128}, texts, retrieve.EmbedOptions{}); err != nil {
				b.Fatal(err)
			}
			pieces := rec.pieces
			name := fmt.Sprintf("threads=%d/batch=%d", threads, batch)
			b.Run(name+"/windows", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := retrieve.EmbedPassages(ctx, e, retrieve.Passage{MaxTokens: 128}, texts, retrieve.EmbedOptions{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "passages/s")
				b.ReportMetric(float64(len(pieces))/float64(len(texts)), "windows/passage")
			})
			b.Run(name+"/truncated", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := retrieve.EmbedPassages(ctx, e, retrieve.Passage{}, texts, retrieve.EmbedOptions{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "passages/s")
			})
			run := embed.BareORT(b, e, pieces, batch)
			b.Run(name+"/ort", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					run()
				}
				b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "passages/s")
			})
			e.Close()
		}
	}
}

// TestBatchSizeKeepsVectors: the batch size is a matter of speed only.
// The passages' vectors (their 128-token windows averaged) at batches of
// 16, 32 and 64 agree to within float rounding, so the batch can be
// chosen by BenchmarkEmbedPassages without measuring the search again.
func TestBatchSizeKeepsVectors(t *testing.T) {
	texts := scifactPassages(t, 48)
	base := embed.RequireOptions(t)
	ctx := context.Background()
	var ref [][]float32
	for _, batch := range []int{32, 16, 64} {
		o := base
		o.BatchSize = batch
		e, err := embed.LoadUSELite(o)
		if err != nil {
			t.Fatal(err)
		}
		vecs, err := retrieve.EmbedPassages(ctx, e, retrieve.Passage{MaxTokens: 128}, texts, retrieve.EmbedOptions{})
		e.Close()
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = vecs
			continue
		}
		worst := 0.0
		for i := range vecs {
			for j := range vecs[i] {
				worst = max(worst, math.Abs(float64(vecs[i][j]-ref[i][j])))
			}
		}
		t.Logf("batch %d: largest difference from batch 32: %.2g", batch, worst)
		if worst > 1e-5 {
			t.Errorf("batch %d changes the vectors: a component differs by %.2g from batch 32's", batch, worst)
		}
	}
}
