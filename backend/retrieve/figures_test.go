package retrieve

import (
	"cmp"
	"context"
	"encoding/json"
	"image"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"vika/backend/assets"
	"vika/backend/assets/assetstest"
	"vika/backend/clip"
	"vika/backend/corpus"
	"vika/backend/index"
	"vika/backend/models/modelstest"
)

// figureChunks are three figure passages whose crops are the PNGs of
// testdata/clip, in clip_golden.json's order.
var figureChunks = []corpus.Chunk{
	{ID: "f1", DocID: "d4", Page: 1, Lang: "en", Kind: corpus.ChunkFigure, Text: "Figure 1: error rate per network"},
	{ID: "f2", DocID: "d4", Page: 2, Lang: "en", Kind: corpus.ChunkFigure, Text: "Figure 2: the training curve"},
	{ID: "f3", DocID: "d4", Page: 3, Lang: "en", Kind: corpus.ChunkFigure, Text: "Figure 3: colour map of the savanna"},
}

// tinyCLIPGolden is what the figure test reads of clip_golden.json.
type tinyCLIPGolden struct {
	Text []struct {
		Text   string    `json:"text"`
		Vector []float64 `json:"vector"`
	} `json:"text"`
	Image []struct {
		File   string    `json:"file"`
		Vector []float64 `json:"vector"`
	} `json:"image"`
}

// figureSetup loads the tiny CLIP (installed through the downloader) and
// returns it with the image vectors of figureChunks and the goldens.
func figureSetup(t *testing.T) (*clip.Model, [][]float32, tinyCLIPGolden) {
	t.Helper()
	assetstest.Require(t, assets.ORT)
	root := t.TempDir()
	modelstest.InstallCLIP(t, root)
	m, err := clip.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	var g tinyCLIPGolden
	raw, err := os.ReadFile(filepath.Join(modelstest.CLIPDir(), "clip_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	var imgs []image.Image
	for _, c := range g.Image {
		data, err := os.ReadFile(filepath.Join(modelstest.CLIPDir(), c.File))
		if err != nil {
			t.Fatal(err)
		}
		img, err := clip.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		imgs = append(imgs, img)
	}
	vecs, err := m.EmbedImages(context.Background(), imgs)
	if err != nil {
		t.Fatal(err)
	}
	return m, vecs, g
}

// figureRetriever indexes the English passages of testChunks and
// figureChunks (a session of English documents: every question gets the
// figure list); with figs set, the figures' image vectors go to the
// figure list.
func figureRetriever(t *testing.T, figs *Figures, vecs [][]float32) *Retriever {
	t.Helper()
	r, _ := emptyRetriever(t, Options{Figures: figs})
	t.Cleanup(func() { r.Close() })
	var all []corpus.Chunk
	for _, c := range testChunks {
		if c.Lang == FigureLang {
			all = append(all, c)
		}
	}
	all = append(all, figureChunks...)
	if err := r.Add(context.Background(), all, nil); err != nil {
		t.Fatal(err)
	}
	if vecs != nil {
		if err := r.AddFigures(figureChunks, vecs); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// expectedFusion computes, from the goldens alone, where the figure list
// puts each passage: the figures ranked by the cosine of the question's
// golden text vector with their golden image vectors, fused with the
// search's own list by RRF (k 60, weights 1 and FigureWeight, the first
// FigureDepth figures).
func expectedFusion(base []string, question []float64, g tinyCLIPGolden) []string {
	type fig struct {
		id  string
		cos float64
	}
	var figs []fig
	for i, im := range g.Image {
		var dot float64
		for j := range question {
			dot += question[j] * im.Vector[j]
		}
		figs = append(figs, fig{figureChunks[i].ID, dot})
	}
	slices.SortStableFunc(figs, func(a, b fig) int { return cmp.Compare(b.cos, a.cos) })
	figs = figs[:min(FigureDepth, len(figs))]
	score := map[string]float64{}
	order := slices.Clone(base)
	for i, id := range base {
		score[id] = 1 / (60 + float64(i+1))
	}
	for i, f := range figs {
		if _, ok := score[f.id]; !ok {
			order = append(order, f.id)
		}
		score[f.id] += FigureWeight / (60 + float64(i+1))
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(score[b], score[a]) })
	return order
}

// TestFigureFusion: with the tiny CLIP, the figures nearest the question
// rank where RRF of the search's list and the figure list says, the
// figure list computed from the goldens; a figure only the figure list
// found is marked FoundImage.
func TestFigureFusion(t *testing.T) {
	m, vecs, g := figureSetup(t)
	plain := figureRetriever(t, nil, nil)
	with := figureRetriever(t, &Figures{Model: m, Index: index.NewDense(m.Dim())}, vecs)
	if with.ImageModel() != clip.Name || with.FigureVectors() != 3 || plain.ImageModel() != "" {
		t.Fatalf("image model %q with %d figures; plain %q", with.ImageModel(), with.FigureVectors(), plain.ImageModel())
	}
	ctx := context.Background()
	onlyImage := 0
	for _, q := range g.Text {
		if strings.TrimSpace(q.Text) == "" {
			continue
		}
		for _, k := range []int{2, 20} { // a shallow search leaves figures to the figure list alone
			o := SearchOptions{Mode: ModeHybrid, K: k, Depth: 1}
			// The search's whole ranked list, before the cut to k.
			cands, _, _, err := plain.ranked(ctx, q.Text, o.Mode, k, k, o.Depth, o.Fusion, corpus.Scope{})
			if err != nil {
				t.Fatal(err)
			}
			var base []string
			for _, c := range cands {
				base = append(base, c.id)
			}
			got, err := with.Search(ctx, q.Text, o)
			if err != nil {
				t.Fatal(err)
			}
			want := expectedFusion(base, q.Vector, g)
			want = want[:min(k, len(want))]
			if !slices.Equal(hitIDs(got.Hits), want) {
				t.Errorf("%q k %d: %v, want %v (search alone %v)", q.Text, k, hitIDs(got.Hits), want, base)
			}
			st := got.Stats
			if st.ImageModel != clip.Name || st.FigureCandidates != FigureDepth || st.FigureError != nil {
				t.Errorf("%q: stats %+v", q.Text, st)
			}
			n := 0
			for _, h := range got.Hits {
				if h.FoundBy == FoundImage {
					n++
					if !slices.Contains([]string{"f1", "f2", "f3"}, h.ChunkID) || slices.Contains(base, h.ChunkID) {
						t.Errorf("%q: %s found by the image list alone", q.Text, h.ChunkID)
					}
				}
			}
			if n != st.FoundBy.Image {
				t.Errorf("%q: %d image hits, stats say %d", q.Text, n, st.FoundBy.Image)
			}
			onlyImage += n
		}
	}
	if onlyImage == 0 {
		t.Error("no figure came from the figure list alone: the test misses that case")
	}
}

// TestFigureListLanguage: the figure list serves English questions, the
// question's language chosen among English and the session's languages.
// In a session of English documents every question gets it, even those
// lingua alone calls French; once a French document joins, a French
// question gets none (its hits are the text search's alone), an English
// one still does; when the French document goes, so does the exception.
func TestFigureListLanguage(t *testing.T) {
	m, vecs, _ := figureSetup(t)
	r := figureRetriever(t, &Figures{Model: m, Index: index.NewDense(m.Dim())}, vecs)
	ctx := context.Background()
	check := func(q string, want bool) {
		t.Helper()
		res, err := r.Search(ctx, q, SearchOptions{Mode: ModeHybrid, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		st := res.Stats
		ran := st.ImageModel == clip.Name && st.FigureCandidates == FigureDepth
		if ran != want || !want && (st.ImageModel != "" || st.FigureCandidates != 0 || st.FoundBy.Image != 0) {
			t.Errorf("%q (languages %v): figure list ran %v, want %v: %+v", q, r.book.languages(), ran, want, st)
		}
	}
	french := "Quelle figure montre le taux d'erreur de chaque réseau ?"
	for _, q := range []string{"confusion matrix", "Café naïve ÉLÈVES", french, "Which figure shows the error rate?"} {
		check(q, true) // English documents only
	}
	doc := corpus.Chunk{ID: "fr1", DocID: "dfr", Page: 1, Lang: "fr", Text: "Le taux d'erreur de chaque réseau est donné par la figure 2."}
	if err := r.Add(ctx, []corpus.Chunk{doc}, nil); err != nil {
		t.Fatal(err)
	}
	check(french, false)
	check("Que montre la courbe d'apprentissage ?", false)
	check("Which figure shows the error rate?", true)
	check("What is BERT?", true) // German among every language, English between English and French
	check("loss curve", true)    // too short to tell
	if err := r.DeleteDoc(ctx, doc.DocID); err != nil {
		t.Fatal(err)
	}
	check(french, true)
}

// TestFiguresAbsentLeaveSearchAlone: without an image model, with one
// whose figure index is empty, and in bm25 mode, the results are those of
// a retriever without a figure list, to the bit.
func TestFiguresAbsentLeaveSearchAlone(t *testing.T) {
	m, vecs, _ := figureSetup(t)
	ctx := context.Background()
	for _, mode := range []Mode{ModeHybrid, ModeDense, ModeBM25} {
		for _, q := range []string{"savanna grass", "error rate of the network", "curve"} {
			o := SearchOptions{Mode: mode, K: 10}
			plain, err := figureRetriever(t, nil, nil).Search(ctx, q, o)
			if err != nil {
				t.Fatal(err)
			}
			empty, err := figureRetriever(t, &Figures{Model: m, Index: index.NewDense(m.Dim())}, nil).Search(ctx, q, o)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(timeless(plain), timeless(empty)) {
				t.Errorf("%s %q: an empty figure list changed the search:\n%+v\n%+v", mode, q, plain, empty)
			}
			if mode != ModeBM25 {
				continue
			}
			full, err := figureRetriever(t, &Figures{Model: m, Index: index.NewDense(m.Dim())}, vecs).Search(ctx, q, o)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(timeless(plain), timeless(full)) {
				t.Errorf("bm25 %q: the figure list changed a BM25 search", q)
			}
		}
	}
}

// timeless clears a result's latencies: the test clock is read by
// goroutines running side by side, so they vary from run to run.
func timeless(r Result) Result {
	st := &r.Stats
	st.Latency, st.Embed, st.Dense, st.Lexical, st.Fuse, st.Rerank, st.Figures = 0, 0, 0, 0, 0, 0, 0
	return r
}

func TestFiguresRejects(t *testing.T) {
	m, vecs, _ := figureSetup(t)
	lex, err := index.NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	defer lex.Close()
	if _, err := New(lex, nil, nil, Options{Figures: &Figures{Model: m, Index: index.NewDense(m.Dim() + 1)}}); err == nil {
		t.Error("a figure index of another dimension was accepted")
	}
	if _, err := New(lex, nil, nil, Options{Figures: &Figures{Model: m}}); err == nil {
		t.Error("a figure list without an index was accepted")
	}
	r := figureRetriever(t, &Figures{Model: m, Index: index.NewDense(m.Dim())}, vecs)
	if err := r.AddFigures(testChunks[:1], vecs[:1]); err == nil {
		t.Error("a body passage was accepted as a figure")
	}
	if err := r.AddFigures(figureChunks, vecs[:2]); err == nil {
		t.Error("3 figures with 2 vectors were accepted")
	}
	if err := r.DeleteDoc(context.Background(), "d4"); err != nil || r.FigureVectors() != 0 {
		t.Errorf("DeleteDoc left %d figure vectors (%v)", r.FigureVectors(), err)
	}
}

// TestFigureDepth: SearchOptions.FigureDepth sets how many figures the
// image list brings (0 the default, a negative depth none: the text
// search's hits alone), bounded by MaxFigureDepth.
func TestFigureDepth(t *testing.T) {
	m, vecs, g := figureSetup(t)
	plain := figureRetriever(t, nil, nil)
	with := figureRetriever(t, &Figures{Model: m, Index: index.NewDense(m.Dim())}, vecs)
	ctx := context.Background()
	q := ""
	for _, x := range g.Text {
		if strings.TrimSpace(x.Text) != "" {
			q = x.Text
			break
		}
	}
	for _, c := range []struct{ depth, want int }{{0, FigureDepth}, {1, 1}, {2, 2}, {-1, 0}} {
		got, err := with.Search(ctx, q, SearchOptions{Mode: ModeHybrid, K: 20, FigureDepth: c.depth})
		if err != nil {
			t.Fatal(err)
		}
		if got.Stats.FigureCandidates != c.want {
			t.Errorf("depth %d: %d figure candidates, want %d", c.depth, got.Stats.FigureCandidates, c.want)
		}
		if c.depth < 0 {
			alone, err := plain.Search(ctx, q, SearchOptions{Mode: ModeHybrid, K: 20})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(hitIDs(got.Hits), hitIDs(alone.Hits)) || got.Stats.ImageModel != "" {
				t.Errorf("depth off: %v (image model %q), want the text search's %v", hitIDs(got.Hits), got.Stats.ImageModel, hitIDs(alone.Hits))
			}
		}
	}
	if figureDepth(1000) != MaxFigureDepth {
		t.Errorf("figureDepth(1000) = %d, want %d", figureDepth(1000), MaxFigureDepth)
	}
}
