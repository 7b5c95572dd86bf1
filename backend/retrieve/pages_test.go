package retrieve

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/index"
)

// onPages returns a book placing chunk "pN-cM" on page N of doc "d", and
// candidates with those ids and scores, best first.
func onPages(t *testing.T, ids []string, scores []float64) (*pageBook, []*candidate) {
	t.Helper()
	book := newPageBook()
	var chunks []corpus.Chunk
	cands := make([]*candidate, len(ids))
	for i, id := range ids {
		var page, n int
		if _, err := fmt.Sscanf(id, "p%d-c%d", &page, &n); err != nil {
			t.Fatalf("id %q: %v", id, err)
		}
		chunks = append(chunks, corpus.Chunk{ID: id, DocID: "d", Page: page})
		cands[i] = &candidate{id: id, score: scores[i]}
	}
	book.add(chunks)
	return book, cands
}

func idsOf(cands []*candidate) []string {
	out := make([]string, len(cands))
	for i, c := range cands {
		out[i] = c.id
	}
	return out
}

func TestRankPages(t *testing.T) {
	ids := []string{"p1-c1", "p1-c2", "p1-c3", "p2-c1", "p3-c1", "p3-c2", "p4-c1"}
	scores := []float64{10, 9, 8, 7.5, 7, 6.9, 1}
	for _, tc := range []struct {
		name string
		p    PageRanking
		want []string
	}{
		{"off keeps the order", PageRanking{}, ids},
		{"diverse: best chunk of every page first, in page order", PageRanking{Diverse: true},
			[]string{"p1-c1", "p2-c1", "p3-c1", "p4-c1", "p1-c2", "p3-c2", "p1-c3"}},
		// Normalised over the window: p1 1 + 0.5·(8/9 + 7/9) = 1.83,
		// p3 6/9 + 0.5·5.9/9 = 0.99, p2 6.5/9 = 0.72.
		{"share lifts a page of several good chunks", PageRanking{Share: 0.5, Diverse: true},
			[]string{"p1-c1", "p3-c1", "p2-c1", "p4-c1", "p1-c2", "p3-c2", "p1-c3"}},
		{"not diverse keeps a page's chunks together", PageRanking{Share: 0.5},
			[]string{"p1-c1", "p1-c2", "p1-c3", "p3-c1", "p3-c2", "p2-c1", "p4-c1"}},
		{"past the window the order stays", PageRanking{Diverse: true, Window: 3},
			[]string{"p1-c1", "p1-c2", "p1-c3", "p2-c1", "p3-c1", "p3-c2", "p4-c1"}},
		{"window of 5", PageRanking{Diverse: true, Window: 5},
			[]string{"p1-c1", "p2-c1", "p3-c1", "p1-c2", "p1-c3", "p3-c2", "p4-c1"}},
	} {
		book, cands := onPages(t, ids, scores)
		got := idsOf(rankPages(cands, tc.p, book, nil, nil))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %v\nwant %v", tc.name, got, tc.want)
		}
	}
}

func TestRankPagesUnknownChunksArePagesOfTheirOwn(t *testing.T) {
	book := newPageBook()
	book.add([]corpus.Chunk{{ID: "a", DocID: "d", Page: 1}, {ID: "b", DocID: "d", Page: 1}})
	cands := []*candidate{{id: "a", score: 3}, {id: "b", score: 2}, {id: "x", score: 1.5}, {id: "y", score: 1}}
	got := idsOf(rankPages(cands, PageRanking{Diverse: true}, book, nil, nil))
	if want := []string{"a", "x", "y", "b"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	book.deleteDoc("d")
	got = idsOf(rankPages(cands, PageRanking{Diverse: true}, book, nil, nil))
	if want := []string{"a", "b", "x", "y"}; !slices.Equal(got, want) {
		t.Errorf("after deleting the document: got %v, want %v (every chunk its own page)", got, want)
	}
}

// TestSearchPageDiverse searches a real BM25 index: the page with three
// matching chunks gives its best one, then the other page comes before its
// second; with the page ranking off, chunk order is BM25's.
func TestSearchPageDiverse(t *testing.T) {
	ctx := context.Background()
	lex, err := index.NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	defer lex.Close()
	chunks := []corpus.Chunk{
		{ID: "d-p1-c1", DocID: "d", Page: 1, Lang: "en", Text: "entropy entropy entropy of a discrete source"},
		{ID: "d-p1-c2", DocID: "d", Page: 1, Lang: "en", Text: "entropy entropy of the source again"},
		{ID: "d-p1-c3", DocID: "d", Page: 1, Lang: "en", Text: "entropy once more on this page"},
		{ID: "d-p2-c1", DocID: "d", Page: 2, Lang: "en", Text: "the channel capacity and the entropy rate"},
		{ID: "d-p3-c1", DocID: "d", Page: 3, Lang: "en", Text: "nothing relevant here at all"},
	}
	off := PageRanking{}
	r, err := New(lex, nil, nil, Options{Pages: &off})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.AddEmbedded(ctx, chunks, nil); err != nil {
		t.Fatal(err)
	}
	ids := func(r *Retriever) []string {
		res, err := r.Search(ctx, "entropy", SearchOptions{Mode: ModeBM25, K: 3})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range res.Hits {
			out = append(out, h.ChunkID)
		}
		return out
	}
	plain := ids(r)
	if len(plain) != 3 || slices.Contains(plain[:2], "d-p2-c1") {
		t.Fatalf("BM25 order %v: the test expects two chunks of page 1 on top", plain)
	}
	if got, want := ids(r.WithPages(PageRanking{Diverse: true, Window: 100})), []string{plain[0], "d-p2-c1", plain[1]}; !slices.Equal(got, want) {
		t.Errorf("diverse: got %v, want %v", got, want)
	}
	if got := r.Pages(); got != off {
		t.Errorf("Pages() = %+v, want the option's %+v", got, off)
	}
	def, err := New(lex, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer def.Close()
	if def.Pages() != DefaultPageRanking {
		t.Errorf("default ranking %+v, want DefaultPageRanking %+v", def.Pages(), DefaultPageRanking)
	}
}

// TestRankPagesWholePages fuses the chunk ranking of pages with a
// whole-page ranking by RRF: a page third by chunks but first as a whole
// page overtakes the page second by chunks and absent from the whole-page
// list.
func TestRankPagesWholePages(t *testing.T) {
	ids := []string{"p1-c1", "p2-c1", "p3-c1", "p3-c2"}
	book, cands := onPages(t, ids, []float64{4, 3, 2, 1})
	whole := map[pageKey]int{{doc: "d", page: 3}: 1, {doc: "d", page: 1}: 2}
	// p1: 1/61 + 1/62, p3: 1/63 + 1/61, p2: 1/62.
	got := idsOf(rankPages(cands, PageRanking{Diverse: true, WholePages: true}, book, whole, nil))
	if want := []string{"p1-c1", "p3-c1", "p2-c1", "p3-c2"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestWholePages: the whole-page index holds one entry per page made of
// its chunks (a page matches words its chunks hold apart), follows a
// chunk that moves to another page, and forgets a deleted document.
func TestWholePages(t *testing.T) {
	ctx := context.Background()
	lex, err := index.NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	defer lex.Close()
	r, err := New(lex, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	add := func(chunks ...corpus.Chunk) {
		t.Helper()
		if err := r.AddEmbedded(ctx, chunks, nil); err != nil {
			t.Fatal(err)
		}
	}
	add(corpus.Chunk{ID: "d-p1-c1", DocID: "d", Page: 1, Lang: "en", Text: "alpha alpha alpha gamma"},
		corpus.Chunk{ID: "d-p2-c1", DocID: "d", Page: 2, Lang: "en", Text: "alpha delta"},
		corpus.Chunk{ID: "d-p2-c2", DocID: "d", Page: 2, CharStart: 20, Lang: "en", Text: "beta epsilon"},
		corpus.Chunk{ID: "e-p1-c1", DocID: "e", Page: 1, Lang: "en", Text: "beta zeta zeta zeta"})
	pages := func(q string) []string {
		t.Helper()
		list, err := r.whole.Search(ctx, q, 10)
		if err != nil {
			t.Fatal(err)
		}
		return idsOfScored(list)
	}
	if got := pages("alpha beta"); len(got) != 3 || got[0] != "d#p2" {
		t.Errorf("whole pages for 'alpha beta': %v, want d#p2 first of 3", got)
	}
	add(corpus.Chunk{ID: "d-p2-c2", DocID: "d", Page: 3, Lang: "en", Text: "beta epsilon"}) // moved to page 3
	if got := pages("epsilon"); !slices.Equal(got, []string{"d#p3"}) {
		t.Errorf("after the move, 'epsilon' is on %v, want [d#p3]", got)
	}
	if err := r.DeleteDoc(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	if got := pages("alpha beta"); !slices.Equal(got, []string{"e#p1"}) {
		t.Errorf("after deleting d: %v, want [e#p1]", got)
	}
}

func idsOfScored(list []index.Scored) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.ChunkID
	}
	return out
}

// A table's passage repeats its page's text: it may lead its page, but
// adds nothing to the page's share, and stays out of the whole-page entry.
func TestRankPagesRegionCountsOnceWithItsPage(t *testing.T) {
	ids := []string{"p2-c1", "p1-c1", "p1-c2", "p2-c2"}
	scores := []float64{10, 9.8, 9.5, 6}
	// Normalised: p2 1 + 0.5·0 = 1; p1 0.95 + 0.5·0.875 = 1.39.
	book, cands := onPages(t, ids, scores)
	got := idsOf(rankPages(cands, PageRanking{Share: 0.5, Diverse: true}, book, nil, nil))
	if want := []string{"p1-c1", "p2-c1", "p1-c2", "p2-c2"}; !slices.Equal(got, want) {
		t.Fatalf("plain chunks: got %v, want %v", got, want)
	}
	// p1's second chunk is its table's passage: p1 0.95, no second vote.
	book = newPageBook()
	entries := book.add([]corpus.Chunk{
		{ID: "p1-c1", DocID: "d", Page: 1, Text: "body of page one", Kind: corpus.ChunkBody},
		{ID: "p1-c2", DocID: "d", Page: 1, Text: "| table | of page one |", Kind: corpus.ChunkTable},
		{ID: "p2-c1", DocID: "d", Page: 2, Text: "body of page two", Kind: corpus.ChunkBody},
		{ID: "p2-c2", DocID: "d", Page: 2, Text: "more of page two", Kind: corpus.ChunkBody},
	})
	cands = nil
	for i, id := range ids {
		cands = append(cands, &candidate{id: id, score: scores[i]})
	}
	got = idsOf(rankPages(cands, PageRanking{Share: 0.5, Diverse: true}, book, nil, nil))
	if want := []string{"p2-c1", "p1-c1", "p2-c2", "p1-c2"}; !slices.Equal(got, want) {
		t.Errorf("with a table passage: got %v, want %v", got, want)
	}
	if len(entries) != 2 {
		t.Fatalf("%d whole-page entries, want 2", len(entries))
	}
	for _, e := range entries {
		if strings.Contains(e.Text, "table") {
			t.Errorf("whole-page entry of page %d holds the table passage: %q", e.Page, e.Text)
		}
	}
}

// A display formula's passage repeats a line of its page's passage: it is
// not a BM25 passage and does not change the BM25 scores of the others
// (the page's own passage, which holds the formula, is found instead); a
// dense index, which scores each passage alone, keeps it. An empty figure
// passage has nothing to match and is in neither index.
func TestFormulaPassagesNotInBM25(t *testing.T) {
	ctx := context.Background()
	body := corpus.Chunk{ID: "d-p1-c1", DocID: "d", Page: 1, Lang: "fr", Kind: corpus.ChunkBody,
		Text: "Risque quadratique : décomposition biais-variance\nR(θ, ˆθ) = Biais2(ˆθ) + V(ˆθ)"}
	other := corpus.Chunk{ID: "d-p2-c1", DocID: "d", Page: 2, Lang: "fr", Kind: corpus.ChunkBody,
		Text: "Biais d'un estimateur : un estimateur sans biais tombe en moyenne sur la valeur"}
	regions := []corpus.Chunk{
		{ID: "d-p1-c2", DocID: "d", Page: 1, Lang: "fr", Kind: corpus.ChunkFormula, Text: "R(θ, ˆθ) = Biais2(ˆθ) + V(ˆθ)"},
		{ID: "d-p1-c3", DocID: "d", Page: 1, Lang: "fr", Kind: corpus.ChunkFigure, Text: "  "},
	}
	table := corpus.Chunk{ID: "d-p2-c2", DocID: "d", Page: 2, Lang: "fr", Kind: corpus.ChunkTable, Text: "| biais | variance |\n|---|---|\n| 0 | 1 |"}
	search := func(chunks []corpus.Chunk, mode Mode, q string) []corpus.Hit {
		t.Helper()
		lex, err := index.NewLexical()
		if err != nil {
			t.Fatal(err)
		}
		defer lex.Close()
		emb := newFakeEmbedder()
		r, err := New(lex, index.NewDense(emb.Dim()), emb, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if err := r.Add(ctx, chunks, nil); err != nil {
			t.Fatal(err)
		}
		res, err := r.Search(ctx, q, SearchOptions{Mode: mode, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		return res.Hits
	}
	for _, mode := range []Mode{ModeBM25, ModeDense, ModeHybrid} {
		with := search(append([]corpus.Chunk{body, other, table}, regions...), mode, "Biais2 V R θ biais")
		ids := hitIDs(with)
		if slices.Contains(ids, "d-p1-c3") {
			t.Errorf("%s: the empty passage was found: %v", mode, ids)
		}
		if formula := slices.Contains(ids, "d-p1-c2"); formula != (mode == ModeDense || mode == ModeHybrid) {
			t.Errorf("%s: formula passage found %v: %v", mode, formula, ids)
		}
		if !slices.Contains(ids, body.ID) || !slices.Contains(ids, table.ID) {
			t.Errorf("%s: hits %v, want the page's passage and the table's", mode, ids)
		}
	}
	// BM25 scores are those of an index without the formula passages.
	with := search(append([]corpus.Chunk{body, other}, regions...), ModeBM25, "biais variance")
	without := search([]corpus.Chunk{body, other}, ModeBM25, "biais variance")
	if len(with) != len(without) {
		t.Fatalf("hits %v with the region passages, %v without", hitIDs(with), hitIDs(without))
	}
	for i := range with {
		if with[i].ChunkID != without[i].ChunkID || with[i].Score != without[i].Score {
			t.Errorf("hit %d: %s %.6f with the region passages, %s %.6f without", i, with[i].ChunkID, with[i].Score, without[i].ChunkID, without[i].Score)
		}
	}
}
