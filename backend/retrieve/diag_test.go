//go:build tune

package retrieve

import (
	"context"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/embed"
	"vika/backend/eval"
	"vika/backend/index"
	"vika/backend/ingest"
	"vika/backend/models"
)

// This file explains the page ranking of chosen questions of
// testdata/pdf_questions.jsonl: for each, the answer pages, where they
// rank by chunks and as whole pages, and the pages ranked above them. It
// is a diagnostic, not a check: built only with the tag "tune" (like the
// sweeps of tune_test.go), it reads the cache that
// `vika eval pages --cache DIR` writes, and skips without one:
//
//	VIKA_DIAG_CACHE=DIR VIKA_DIAG_IDS=rouviere-20,okasaki-14 \
//	  go test -count=1 -tags "tune webkit2_41" -run TestExplainPages -v ./backend/retrieve
//
// VIKA_DIAG_PROFILE (JSON) overrides fields of the model's profile.
// VIKA_DIAG_REGIONS=1 reads the cache of a run with region passages
// (tables, figures, formulas). VIKA_DIAG_WHOLE=1 also prints the first whole pages with their scores,
// VIKA_DIAG_DUMP=1 the chunks of the answer pages, and VIKA_DIAG_REPEAT=1
// the first pages of 30 searches of the question (one line if the search
// is deterministic). -count=1 matters: a cached test result would hide a
// search that differs from one index build to the next.

type diagCache struct {
	Result ingest.Result
	Model  string
	Vecs   [][]float32
}

// diagEmbedder is the shipped English embedder (USE-lite), closed when
// the test ends.
func diagEmbedder(t *testing.T) embed.Embedder {
	t.Helper()
	c, err := models.Embedder(true)
	if err != nil {
		t.Fatal(err)
	}
	emb, err := embed.Open(models.Root(), c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emb.Close() })
	return emb
}

// readGob decodes the gob file at path into v.
func readGob(t *testing.T, path string, v any) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := gob.NewDecoder(f).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func TestExplainPages(t *testing.T) {
	dir, ids := os.Getenv("VIKA_DIAG_CACHE"), os.Getenv("VIKA_DIAG_IDS")
	if dir == "" || ids == "" {
		t.Fatal("a diagnostic run by hand (see its comment): set VIKA_DIAG_CACHE to a `vika eval pages --cache` dir and VIKA_DIAG_IDS to question ids or all")
	}
	qs, err := eval.LoadPageQuestions(filepath.Join("..", "..", "testdata", "pdf_questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	emb := diagEmbedder(t)
	rets := map[string]*Retriever{}
	texts := map[string]map[string]corpus.Chunk{}
	langs := map[string]string{}
	ctx := context.Background()
	for _, q := range qs {
		if ids != "all" && !slices.Contains(strings.Split(ids, ","), q.ID) {
			continue
		}
		r := rets[q.File]
		if r == nil {
			suffix := ".use-lite.gob"
			if os.Getenv("VIKA_DIAG_REGIONS") != "" {
				suffix = ".use-lite.regions.gob" // the cache of a run with region passages
			}
			paths, _ := filepath.Glob(filepath.Join(dir, q.File+".*"+suffix))
			if len(paths) != 1 {
				t.Fatalf("%s: cache %v", q.File, paths)
			}
			var dc diagCache
			readGob(t, paths[0], &dc)
			lex, _ := index.NewLexical()
			dense := index.NewDense(emb.Dim())
			prof := ProfileFor(emb.Name())
			if js := os.Getenv("VIKA_DIAG_PROFILE"); js != "" {
				if err := json.Unmarshal([]byte(js), &prof); err != nil {
					t.Fatalf("VIKA_DIAG_PROFILE: %v", err)
				}
			}
			if r, err = New(lex, dense, emb, Options{Profile: &prof}); err != nil {
				t.Fatal(err)
			}
			if err := r.AddEmbedded(ctx, dc.Result.Chunks, dc.Vecs); err != nil {
				t.Fatal(err)
			}
			rets[q.File] = r
			texts[q.File] = map[string]corpus.Chunk{}
			for _, ch := range dc.Result.Chunks {
				texts[q.File][ch.ID] = ch
			}
			langs[q.File] = dc.Result.Doc.Lang
		}
		if os.Getenv("VIKA_DIAG_DUMP") != "" {
			for _, ch := range texts[q.File] {
				if slices.Contains(q.Pages, ch.Page) {
					fmt.Printf("--- p%d %s title=%q kind=%s pages=%v\n%s\n", ch.Page, ch.ID, ch.SectionTitle, ch.Kind, ch.Pages, ch.Text)
				}
			}
		}
		if os.Getenv("VIKA_DIAG_OVERLAYS") != "" {
			overlays(t, r, q, texts[q.File], langs[q.File])
			continue
		}
		explain(t, r, q, texts[q.File], langs[q.File])
	}
}

// overlays prints the pages of q's 8 sources and, for each source on a
// page within two of an earlier source's page, the share of its word
// 3-grams the earlier one holds (slide overlays repeat a slide).
func overlays(t *testing.T, r *Retriever, q eval.PageQuestion, chunks map[string]corpus.Chunk, lang string) {
	mode := ModeHybrid
	if lang != "en" && lang != "" {
		mode = ModeBM25
	}
	res, err := r.Search(context.Background(), q.Question, SearchOptions{Mode: mode, K: 8})
	if err != nil {
		t.Fatal(err)
	}
	var line []string
	dups := 0
	for i, h := range res.Hits {
		c := chunks[h.ChunkID]
		note := ""
		for _, e := range res.Hits[:i] {
			p := chunks[e.ChunkID]
			if d := c.Page - p.Page; d >= -2 && d <= 2 && d != 0 {
				sim := containment(grams3(c.Text), grams3(p.Text))
				note += fmt.Sprintf("~p%d:%.2f", p.Page, sim)
				if sim >= 0.6 {
					dups++
				}
			}
		}
		line = append(line, fmt.Sprintf("p%d%s", c.Page, note))
	}
	fmt.Printf("OVERLAY %s %s dups %d: %s\n", q.ID, q.Split, dups, strings.Join(line, " "))
}

func grams3(s string) map[string]bool {
	w := strings.Fields(strings.ToLower(s))
	out := map[string]bool{}
	for i := 0; i+3 <= len(w); i++ {
		out[w[i]+" "+w[i+1]+" "+w[i+2]] = true
	}
	return out
}

// containment is the share of the smaller set's grams the other holds.
func containment(a, b map[string]bool) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == 0 {
		return 0
	}
	n := 0
	for g := range a {
		if b[g] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

func explain(t *testing.T, r *Retriever, q eval.PageQuestion, chunks map[string]corpus.Chunk, lang string) {
	ctx := context.Background()
	mode := ModeHybrid
	if lang != "en" && lang != "" {
		mode = ModeBM25
	}
	var cands []*candidate
	var err error
	if mode == ModeHybrid {
		cands, _, _, err = r.searchHybrid(ctx, q.Question, 50, 0, "", corpus.Scope{})
	} else {
		cands, _, err = r.searchBM25(ctx, q.Question, 50, corpus.Scope{})
	}
	if err != nil {
		t.Fatal(err)
	}
	whole, err := r.whole.Search(ctx, q.Question, 50)
	if err != nil {
		t.Fatal(err)
	}
	wr := r.book.pageRanks(whole)
	if os.Getenv("VIKA_DIAG_WHOLE") != "" {
		for i, w := range whole[:15] {
			fmt.Printf("   whole %2d %s %.9f\n", i+1, w.ChunkID[strings.Index(w.ChunkID, "#"):], w.Score)
		}
	}
	if os.Getenv("VIKA_DIAG_REPEAT") != "" {
		seen := map[string]int{}
		for range 30 {
			res, err := r.Search(ctx, q.Question, SearchOptions{Mode: mode, K: 50})
			if err != nil {
				t.Fatal(err)
			}
			var top []int
			for _, h := range res.Hits[:6] {
				top = append(top, chunks[h.ChunkID].Page)
			}
			seen[fmt.Sprint(top)]++
		}
		fmt.Println("repeat:", seen)
	}
	fmt.Printf("\n### %s (%s, %s) pages %v: %s\n", q.ID, mode, q.Kind, q.Pages, q.Question)
	for _, p := range q.Pages {
		k := pageKey{doc: chunks[cands[0].id].DocID, page: p}
		first, lexR, denseR := -1, 0, 0
		for i, c := range cands {
			if chunks[c.id].Page == p {
				first, lexR, denseR = i+1, c.lexicalRank, c.denseRank
				break
			}
		}
		fmt.Printf("  answer page %d: best chunk at %d of the fused candidates (BM25 rank %d, dense rank %d), whole-page rank %d\n", p, first, lexR, denseR, wr[k])
	}
	ranked := rankPages(slices.Clone(cands), r.pages, r.book, wr, nil)
	seen := map[int]bool{}
	n := 0
	for _, c := range ranked {
		ch := chunks[c.id]
		if seen[ch.Page] {
			continue
		}
		seen[ch.Page] = true
		n++
		mark := " "
		if slices.Contains(q.Pages, ch.Page) {
			mark = "*"
		}
		pos := slices.IndexFunc(cands, func(x *candidate) bool { return x.id == c.id }) + 1
		fmt.Printf(" %s%2d p%-4d chunk#%-3d lexR %-4d denseR %-4d score %6.3f wholeR %-3d %-7s %q\n", mark, n, ch.Page, pos, c.lexicalRank, c.denseRank, c.score,
			wr[pageKey{doc: ch.DocID, page: ch.Page}], ch.Kind, trim(ch.Text, 100))
		if n == 10 {
			break
		}
	}
}

func trim(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n]
	}
	return s
}
