//go:build tune

package retrieve

import (
	"context"
	"encoding/gob"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"vika/backend/embed"
	"vika/backend/eval"
	"vika/backend/models"
)

// TestDiagWordNeighbours (experiment, issue 16 fifth round): for chosen
// questions, each question word's nearest words of its document's
// vocabulary by USE-lite cosine of the single words.
//
//	QEXP_CACHE=DIR QEXP_IDS=okasaki-14 go test -count=1 -tags "tune webkit2_41" -run TestDiagWordNeighbours -v ./backend/retrieve
func TestDiagWordNeighbours(t *testing.T) {
	dir, ids := os.Getenv("QEXP_CACHE"), os.Getenv("QEXP_IDS")
	if dir == "" || ids == "" {
		t.Skip("QEXP_CACHE and QEXP_IDS not set")
	}
	qs, err := eval.LoadPageQuestions(filepath.Join("..", "..", "testdata", "pdf_questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := models.Embedder(true)
	if err != nil {
		t.Fatal(err)
	}
	emb, err := embed.Open(models.Root(), c)
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	ctx := context.Background()
	words := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
	}
	type vocab struct {
		words []string
		vecs  [][]float32
		pages map[string][]int
	}
	vocabs := map[string]*vocab{}
	for _, q := range qs {
		if !slices.Contains(strings.Split(ids, ","), q.ID) {
			continue
		}
		v := vocabs[q.File]
		if v == nil {
			paths, _ := filepath.Glob(filepath.Join(dir, q.File+".*.use-lite.regions.gob"))
			if len(paths) != 1 {
				t.Fatalf("%s: cache %v", q.File, paths)
			}
			f, err := os.Open(paths[0])
			if err != nil {
				t.Fatal(err)
			}
			var dc diagCache
			if err := gob.NewDecoder(f).Decode(&dc); err != nil {
				t.Fatal(err)
			}
			f.Close()
			v = &vocab{pages: map[string][]int{}}
			for _, ch := range dc.Result.Chunks {
				for _, w := range words(ch.Text) {
					if len([]rune(w)) < 3 {
						continue
					}
					if _, ok := v.pages[w]; !ok {
						v.words = append(v.words, w)
					}
					if p := v.pages[w]; len(p) == 0 || p[len(p)-1] != ch.Page {
						v.pages[w] = append(p, ch.Page)
					}
				}
			}
			start := time.Now()
			for i := 0; i < len(v.words); i += 256 {
				vs, err := emb.Embed(ctx, v.words[i:min(i+256, len(v.words))])
				if err != nil {
					t.Fatal(err)
				}
				v.vecs = append(v.vecs, vs...)
			}
			fmt.Printf("%s: %d words embedded in %v\n", q.File, len(v.words), time.Since(start).Round(time.Millisecond))
			vocabs[q.File] = v
		}
		fmt.Printf("Q %s %v: %s\n", q.ID, q.Pages, q.Question)
		for _, w := range words(q.Question) {
			if len([]rune(w)) < 3 {
				continue
			}
			qv, err := emb.Embed(ctx, []string{w})
			if err != nil {
				t.Fatal(err)
			}
			type nb struct {
				w   string
				cos float64
			}
			var nbs []nb
			for i, vv := range v.vecs {
				nbs = append(nbs, nb{v.words[i], cosine(qv[0], vv)})
			}
			slices.SortFunc(nbs, func(a, b nb) int {
				if a.cos > b.cos {
					return -1
				}
				if a.cos < b.cos {
					return 1
				}
				return 0
			})
			var b strings.Builder
			for _, n := range nbs[:min(10, len(nbs))] {
				on := ""
				for _, p := range v.pages[n.w] {
					if slices.Contains(q.Pages, p) {
						on = "*"
					}
				}
				fmt.Fprintf(&b, " %s%s(%.2f,%d)", n.w, on, n.cos, len(v.pages[n.w]))
			}
			fmt.Printf("  %s [%d pages]:%s\n", w, len(v.pages[w]), b.String())
		}
	}
}

func cosine(a, b []float32) float64 {
	var d, na, nb float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return d / math.Sqrt(na*nb)
}
