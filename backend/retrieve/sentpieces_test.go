//go:build tune

package retrieve

import (
	"context"
	"encoding/gob"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/embed"
)

// The pieces of chunks that TestSentenceSignal and TestSentenceEmbedCost
// embed, and their small helpers.

// pieceVectors returns the unit vectors of each chunk's pieces, read from
// path or embedded and written there.
func pieceVectors(t *testing.T, emb embed.Embedder, chunks []corpus.Chunk, split, path string) map[string][][]float32 {
	out := map[string][][]float32{}
	if _, err := os.Stat(path); err == nil {
		readGob(t, path, &out)
		return out
	}
	p := Passage{PerSentence: true, MaxTokens: 128}
	if strings.HasPrefix(split, "w") && split != "lines" {
		n, err := strconv.Atoi(split[1:])
		if err != nil {
			t.Fatalf("VIKA_SENT_SPLIT %q", split)
		}
		p = Passage{MaxTokens: n}
	}
	count := counter(emb)
	var texts, owner []string
	for _, c := range chunks {
		if !inDense(c) {
			continue
		}
		if split == "lines" {
			for _, l := range linePieces(c.Text) {
				for _, pc := range p.split(l, count) {
					texts = append(texts, pc.text)
					owner = append(owner, c.ID)
				}
			}
			continue
		}
		for _, pc := range p.split(c.Text, count) {
			texts = append(texts, pc.text)
			owner = append(owner, c.ID)
		}
	}
	var runes int
	for _, s := range texts {
		runes += len([]rune(s))
	}
	fmt.Printf("PIECES %s %s: %d chunks, %d pieces, %.0f runes per piece\n", filepath.Base(path), split, len(chunks), len(texts), float64(runes)/float64(max(len(texts), 1)))
	for start := 0; start < len(texts); start += 256 {
		end := min(start+256, len(texts))
		vecs, err := emb.Embed(context.Background(), texts[start:end])
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range vecs {
			out[owner[start+i]] = append(out[owner[start+i]], unit(v))
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := gob.NewEncoder(f).Encode(out); err != nil {
		t.Fatal(err)
	}
	return out
}

// linePieces cuts text at line ends (a slide's bullets), joining a line
// to the next while the piece is shorter than 60 runes.
func linePieces(text string) []string {
	var out []string
	cur := ""
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		cur = strings.TrimSpace(cur + " " + l)
		if len([]rune(cur)) >= 60 {
			out = append(out, cur)
			cur = ""
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

func unit(v []float32) []float32 {
	m := make([]float64, len(v))
	for i, x := range v {
		m[i] = float64(x)
	}
	return toUnit(m, len(v))
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func cmpMap(m map[int]float64, k int) float64 {
	if v, ok := m[k]; ok {
		return v
	}
	return math.Inf(-1)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
