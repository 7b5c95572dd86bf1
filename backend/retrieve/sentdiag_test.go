//go:build tune

package retrieve

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/eval"
	"vika/backend/index"
)

// TestSentenceSignal measures a finer dense signal on the page questions
// (docs/eval/PAGES.md, "Fifth round"): each chunk's text cut into
// short pieces (VIKA_SENT_SPLIT: "sent" one sentence each, "lines" its
// lines then their sentences, "wN" sentences packed up to N tokens), each
// piece embedded by the same model, and a chunk scored by the best cosine
// of the question with its pieces. It prints where each answer page ranks
// by that score and by the chunk's own cosine (RANK, SUMMARY), then the
// page metrics of the default mode with the dense side of the hybrid
// fusion made of both (VARIANT) and the questions each variant moves
// (MOVED). A diagnostic, not a check: tag "tune"; it reads the regions
// cache of `vika eval pages --cache DIR` and keeps the piece vectors in
// VIKA_SENT_CACHE (the first run of a split embeds every piece):
//
//	VIKA_DIAG_CACHE=DIR VIKA_SENT_CACHE=DIR2 VIKA_SENT_SPLIT=lines VIKA_SENT_HALF=tune \
//	  go test -count=1 -tags "tune webkit2_41" -run TestSentenceSignal -v ./backend/retrieve
func TestSentenceSignal(t *testing.T) {
	dir, sdir := os.Getenv("VIKA_DIAG_CACHE"), os.Getenv("VIKA_SENT_CACHE")
	if dir == "" || sdir == "" {
		t.Fatal("a measurement run by hand (command above; docs/eval/PAGES.md, fifth round): set VIKA_DIAG_CACHE to a `vika eval pages --cache` dir and VIKA_SENT_CACHE to a dir for the sentence vectors")
	}
	split := cmp.Or(os.Getenv("VIKA_SENT_SPLIT"), "w64")
	half := cmp.Or(os.Getenv("VIKA_SENT_HALF"), "tune")
	qs, err := eval.LoadPageQuestions(filepath.Join("..", "..", "testdata", "pdf_questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if qs, err = eval.SelectSplit(qs, half); err != nil {
		t.Fatal(err)
	}
	emb := diagEmbedder(t)
	ctx := context.Background()
	type doc struct {
		r      *Retriever
		chunks map[string]corpus.Chunk
		lang   string
		sents  map[string][][]float32
	}
	docs := map[string]*doc{}
	for _, q := range qs {
		if docs[q.File] != nil {
			continue
		}
		paths, _ := filepath.Glob(filepath.Join(dir, q.File+".*.use-lite.regions.gob"))
		if len(paths) != 1 {
			t.Fatalf("%s: cache %v", q.File, paths)
		}
		var dc diagCache
		readGob(t, paths[0], &dc)
		lex, _ := index.NewLexical()
		prof := ProfileFor(emb.Name())
		r, err := New(lex, index.NewDense(emb.Dim()), emb, Options{Profile: &prof})
		if err != nil {
			t.Fatal(err)
		}
		if err := r.AddEmbedded(ctx, dc.Result.Chunks, dc.Vecs); err != nil {
			t.Fatal(err)
		}
		d := &doc{r: r, chunks: map[string]corpus.Chunk{}, lang: dc.Result.Doc.Lang}
		for _, ch := range dc.Result.Chunks {
			d.chunks[ch.ID] = ch
		}
		if d.lang == "en" || d.lang == "" {
			d.sents = pieceVectors(t, emb, dc.Result.Chunks, split, filepath.Join(sdir, fmt.Sprintf("%s.%s.sent.gob", filepath.Base(paths[0]), split)))
		}
		docs[q.File] = d
	}

	// Where the answer page ranks by the best chunk cosine and by the best
	// piece cosine, over every page of the document.
	var rc, rs []int
	for _, q := range qs {
		d := docs[q.File]
		if d.sents == nil {
			continue
		}
		qv, err := d.r.spaces[0].embedQuery(ctx, q.Question)
		if err != nil {
			t.Fatal(err)
		}
		chunkBest, sentBest := map[int]float64{}, map[int]float64{}
		for id, ch := range d.chunks {
			v, ok := d.r.spaces[0].dense.Vector(id)
			if !ok {
				continue
			}
			cs := dot(qv, v)
			ss := math.Inf(-1)
			for _, sv := range d.sents[id] {
				ss = max(ss, dot(qv, sv))
			}
			chunkBest[ch.Page] = max(cmpMap(chunkBest, ch.Page), cs)
			sentBest[ch.Page] = max(cmpMap(sentBest, ch.Page), ss)
		}
		a, b := pageRankOf(chunkBest, q.Pages), pageRankOf(sentBest, q.Pages)
		rc, rs = append(rc, a), append(rs, b)
		fmt.Printf("RANK %-13s %-5s chunk-cos page rank %4d  best-piece page rank %4d\n", q.ID, q.Kind, a, b)
	}
	summary := func(name string, r []int) {
		s := slices.Clone(r)
		slices.Sort(s)
		n1, n5, n8 := 0, 0, 0
		for _, x := range s {
			n1 += b2i(x <= 1)
			n5 += b2i(x <= 5)
			n8 += b2i(x <= 8)
		}
		fmt.Printf("SUMMARY %-10s %d questions: page rank median %d, first %d, top-5 %d, top-8 %d\n", name, len(s), s[len(s)/2], n1, n5, n8)
	}
	if len(rc) > 0 {
		summary("chunk-cos", rc)
		summary("piece-cos", rs)
	}

	// The default mode with the dense side of the fusion made of both.
	type variant struct {
		name string
		mix  func(chunk, piece float64) float64
		w    float64
		// pagew, if not 0, folds the pages ranked by their best piece
		// into the whole-page ranks (RRF, this weight) before the page
		// ranking fuses them with the chunks'.
		pagew float64
	}
	vs := []variant{{"chunk (shipped)", func(c, _ float64) float64 { return c }, 0, 0}}
	for _, a := range []float64{0.25, 0.5, 0.6, 0.75, 0.9, 1} {
		vs = append(vs, variant{fmt.Sprintf("mix %.2f", a), func(c, s float64) float64 { return (1-a)*c + a*s }, 0, 0})
	}
	vs = append(vs, variant{"max", func(c, s float64) float64 { return max(c, s) }, 0, 0})
	for _, pw := range []float64{0.1, 0.25, 0.5, 1} {
		vs = append(vs, variant{fmt.Sprintf("page list %.2f", pw), func(c, _ float64) float64 { return c }, 0, pw})
	}
	for _, w := range []float64{0.5, 0.6, 0.8} { // other dense weights
		for _, a := range []float64{0.5, 0.75, 1} {
			vs = append(vs, variant{fmt.Sprintf("mix %.2f w %.2f", a, w), func(c, s float64) float64 { return (1-a)*c + a*s }, w, 0})
		}
	}
	shipped := map[string]int{} // page rank of each question, shipped ranking
	for vi, v := range vs {
		var h1, h5, h8, src int
		var moved []string
		var mrr float64
		var misses []string
		for _, q := range qs {
			d := docs[q.File]
			var ranked []*candidate
			if d.sents == nil {
				ranked, _, _, err = d.r.ranked(ctx, q.Question, ModeBM25, 50, 50, 0, "", corpus.Scope{})
			} else {
				ranked, err = sentenceRanked(ctx, d.r, q.Question, d.sents, d.chunks, v.mix, v.w, v.pagew)
			}
			if err != nil {
				t.Fatal(err)
			}
			pr, sources := pageRankIn(ranked[:min(50, len(ranked))], d.chunks, q.Pages)
			h1 += b2i(pr == 1)
			h5 += b2i(pr >= 1 && pr <= 5)
			h8 += b2i(pr >= 1 && pr <= 8)
			src += b2i(sources)
			if pr > 0 {
				mrr += 1 / float64(pr)
			}
			if !sources {
				misses = append(misses, q.ID)
			}
			if vi == 0 {
				shipped[q.ID] = pr
			} else if shipped[q.ID] != pr {
				moved = append(moved, fmt.Sprintf("%s %d->%d", q.ID, shipped[q.ID], pr))
			}
		}
		if vi > 0 {
			fmt.Printf("MOVED %s: %s\n", v.name, strings.Join(moved, ", "))
		}
		fmt.Printf("VARIANT %-22s %s %s: %d / %d / %d of %d, MRR %.3f, sources %d; misses %v\n", v.name, split, half, h1, h5, h8, len(qs), mrr/float64(len(qs)), src, misses)
	}
}

// sentenceRanked is the default hybrid search with each candidate's dense
// score set to mix(its cosine, its best piece's cosine), then ranked by
// page as the Retriever ranks. w, if not 0, replaces the dense weight.
func sentenceRanked(ctx context.Context, r *Retriever, q string, sents map[string][][]float32, chunks map[string]corpus.Chunk, mix func(c, s float64) float64, w, pagew float64) ([]*candidate, error) {
	cands, _, _, err := r.searchHybrid(ctx, q, 50, 0, "", corpus.Scope{})
	if err != nil {
		return nil, err
	}
	s := r.spaces[0]
	qv, err := s.embedQuery(ctx, q)
	if err != nil {
		return nil, err
	}
	for _, c := range cands {
		if !c.hasDense {
			continue
		}
		best := c.cosine
		if vs := sents[c.id]; len(vs) > 0 {
			best = math.Inf(-1)
			for _, v := range vs {
				best = max(best, dot(qv, v))
			}
		}
		c.dense = mix(c.cosine, best)
	}
	f := s.prof.fusion("")
	if w != 0 {
		f.denseWeight = w
	}
	fuse(cands, f)
	whole, err := r.whole.Search(ctx, q, 50)
	if err != nil {
		return nil, err
	}
	wr := r.book.pageRanks(whole)
	if pagew != 0 {
		wr = foldPieceRanks(qv, wr, sents, chunks, pagew)
	}
	return rankPages(cands, r.pages, r.book, wr, nil), nil
}

// foldPieceRanks returns the ranks of the pages by RRF of their whole-page
// rank and, weighted by w, their rank by best piece cosine (the first 50
// pages of each list).
func foldPieceRanks(qv []float32, whole map[pageKey]int, sents map[string][][]float32, chunks map[string]corpus.Chunk, w float64) map[pageKey]int {
	best := map[pageKey]float64{}
	for id, vs := range sents {
		ch := chunks[id]
		k := pageKey{doc: ch.DocID, page: ch.Page}
		for _, v := range vs {
			if s, ok := best[k]; !ok || dot(qv, v) > s {
				best[k] = dot(qv, v)
			}
		}
	}
	keys := make([]pageKey, 0, len(best))
	for k := range best {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b pageKey) int {
		if best[a] != best[b] {
			if best[a] > best[b] {
				return -1
			}
			return 1
		}
		return a.page - b.page
	})
	fused := map[pageKey]float64{}
	for k, r := range whole {
		fused[k] += 1 / float64(DefaultRRFK+r)
	}
	for i, k := range keys[:min(50, len(keys))] {
		fused[k] += w / float64(DefaultRRFK+i+1)
	}
	order := make([]pageKey, 0, len(fused))
	for k := range fused {
		order = append(order, k)
	}
	slices.SortFunc(order, func(a, b pageKey) int {
		if fused[a] != fused[b] {
			if fused[a] > fused[b] {
				return -1
			}
			return 1
		}
		return a.page - b.page
	})
	out := make(map[pageKey]int, len(order))
	for i, k := range order {
		out[k] = i + 1
	}
	return out
}

// pageRankIn returns the rank of the first answer page among the distinct
// pages of list and whether it is among the pages of the first 8.
func pageRankIn(list []*candidate, chunks map[string]corpus.Chunk, pages []int) (int, bool) {
	seen := map[int]bool{}
	for i, c := range list {
		p := chunks[c.id].Page
		if seen[p] {
			continue
		}
		seen[p] = true
		if slices.Contains(pages, p) {
			return len(seen), i < 8
		}
	}
	return 0, false
}

// pageRankOf is the 1-based rank of the best of pages by score (ties
// counted against the page).
func pageRankOf(score map[int]float64, pages []int) int {
	best := math.Inf(-1)
	for _, p := range pages {
		if s, ok := score[p]; ok {
			best = max(best, s)
		}
	}
	n := 1
	for p, s := range score {
		if s > best && !slices.Contains(pages, p) {
			n++
		}
	}
	return n
}
