package engine

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"vika/backend/clip"
	"vika/backend/corpus"
	"vika/backend/models"
	"vika/backend/models/modelstest"
	"vika/backend/retrieve"
	"vika/backend/testpdf"
)

// figuresPDF has one captioned figure per page: the PNGs of testdata/clip.
func figuresPDF(t testing.TB) []byte {
	t.Helper()
	var pages []testpdf.Illustrated
	for i, c := range []struct{ file, caption string }{
		{"bars.png", "Figure 1: Error rate of each network on the test set."},
		{"curve.png", "Figure 2: Training curve over the epochs."},
		{"rgb.png", "Figure 3: Colour map of the savanna."},
	} {
		png, err := os.ReadFile(filepath.Join(modelstest.CLIPDir(), c.file))
		if err != nil {
			t.Fatal(err)
		}
		body := "Section " + string(rune('1'+i)) + ". The results are discussed below in detail. " + c.caption
		pages = append(pages, testpdf.Illustrated{Body: body, Figures: []testpdf.Figure{{X: 72, Y: 200, W: 360, H: 300, PNG: png}}})
	}
	return testpdf.Illustrations(pages...)
}

func figureChunksOf(t *testing.T, e *Engine, docID string) []corpus.Chunk {
	t.Helper()
	cs, err := e.store.DocumentChunks(context.Background(), docID)
	if err != nil {
		t.Fatal(err)
	}
	var out []corpus.Chunk
	for _, c := range cs {
		if c.Kind == corpus.ChunkFigure {
			out = append(out, c)
		}
	}
	return out
}

// TestFiguresFoundByWhatTheyShow: with the tiny CLIP installed (through the
// downloader), every figure of an ingested PDF gets an image vector, and a
// hybrid search runs the figure list; without CLIP, the same session
// searches exactly as before. Installing CLIP in a running session and
// switching models gives the figures their vectors.
func TestFiguresFoundByWhatTheyShow(t *testing.T) {
	onlyInstalledModels(t)
	ctx := context.Background()
	data := figuresPDF(t)

	plainRoot, clipRoot := t.TempDir(), t.TempDir()
	modelstest.InstallCLIP(t, clipRoot)
	plain := newEngine(t, Config{ModelsRoot: plainRoot})
	with := newEngine(t, Config{ModelsRoot: clipRoot})
	doc := mustAdd(t, plain, "figures.pdf", data)
	mustAdd(t, with, "figures.pdf", data)

	figs := figureChunksOf(t, with, doc.ID)
	if len(figs) != 3 {
		t.Fatalf("%d figure passages, want 3", len(figs))
	}
	if n := with.models.Load().ret.FigureVectors(); n != len(figs) {
		t.Errorf("CLIP installed: %d figure vectors, want %d", n, len(figs))
	}
	if n := plain.models.Load().ret.FigureVectors(); n != 0 {
		t.Errorf("no CLIP: %d figure vectors", n)
	}

	for _, q := range []string{"the bar chart of the error rate", "a photo of a cat"} {
		res, err := with.Search(ctx, retrieve.Query{Question: q}, SearchOptions{Mode: retrieve.ModeHybrid, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.ImageModel != clip.Name || res.Stats.FigureCandidates != retrieve.FigureDepth {
			t.Errorf("%q: figure list did not run: %+v", q, res.Stats)
		}
		for _, h := range res.Hits {
			if h.FoundBy == retrieve.FoundImage && (h.Kind != corpus.ChunkFigure || h.BBox == nil || h.File != "figures.pdf") {
				t.Errorf("%q: image hit %+v is not a labelled figure passage", q, h)
			}
		}
		// The same search without CLIP is the session's search as it was:
		// bm25 identical in both, hybrid without any figure list.
		p, err := plain.Search(ctx, retrieve.Query{Question: q}, SearchOptions{Mode: retrieve.ModeHybrid, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		if p.Stats.ImageModel != "" || p.Stats.FoundBy.Image != 0 {
			t.Errorf("%q without CLIP: %+v", q, p.Stats)
		}
		a, err := plain.Search(ctx, retrieve.Query{Question: q}, SearchOptions{Mode: retrieve.ModeBM25, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		b, err := with.Search(ctx, retrieve.Query{Question: q}, SearchOptions{Mode: retrieve.ModeBM25, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Hits, b.Hits) {
			t.Errorf("%q bm25: CLIP changed the hits", q)
		}
	}

	// CLIP installed while the session runs: the switch embeds the crops.
	modelstest.InstallCLIP(t, plainRoot)
	final := plain.switchModels(ctx, nil)
	if final.Stage != ReembedDone {
		t.Fatalf("switch: %+v", final)
	}
	if n := plain.models.Load().ret.FigureVectors(); n != len(figs) {
		t.Errorf("after the switch: %d figure vectors, want %d", n, len(figs))
	}
	if again := plain.switchModels(ctx, nil); again.Stage != ReembedUnchanged {
		t.Errorf("second switch: %s", again.Stage)
	}
	if err := plain.RemoveDocument(ctx, doc.ID); err != nil {
		t.Fatal(err)
	}
	if n := plain.models.Load().ret.FigureVectors(); n != 0 {
		t.Errorf("removed document left %d figure vectors", n)
	}
}

// TestFigureListEnglishQuestionsOnly: with CLIP and a multilingual text
// model installed, a session of English and French documents searches in
// hybrid mode by default; CLIP reads English only, so the figure list
// joins the search of an English question and not that of a French one,
// whose hits are those of the text search alone.
func TestFigureListEnglishQuestionsOnly(t *testing.T) {
	onlyInstalledModels(t)
	ctx := context.Background()
	root := t.TempDir()
	modelstest.InstallCLIP(t, root)
	install(t, root, models.DefaultMulti, "encoder_b.onnx")
	e := newEngine(t, Config{ModelsRoot: root})
	mustAdd(t, e, "figures.pdf", figuresPDF(t))
	mustAdd(t, e, "cours.pdf", coursPDF)

	for _, c := range []struct {
		q       string
		figures bool
	}{
		{"Which figure shows the error rate of each network?", true},
		{"What does Figure 2 show?", true},
		{"Quelle figure montre le taux d'erreur de chaque réseau ?", false},
		{"Que montre la courbe d'apprentissage ?", false},
	} {
		res, err := e.Search(ctx, retrieve.Query{Question: c.q}, SearchOptions{K: 10})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Mode != retrieve.ModeHybrid {
			t.Fatalf("%q: mode %q, want the default hybrid", c.q, res.Stats.Mode)
		}
		ran := res.Stats.ImageModel == clip.Name && res.Stats.FigureCandidates == retrieve.FigureDepth
		if ran != c.figures || (!c.figures && (res.Stats.ImageModel != "" || res.Stats.FigureCandidates != 0 || res.Stats.FoundBy.Image != 0)) {
			t.Errorf("%q: figure list ran %v, want %v: %+v", c.q, ran, c.figures, res.Stats)
		}
		for _, h := range res.Hits {
			if !c.figures && h.FoundBy == retrieve.FoundImage {
				t.Errorf("%q: a hit of the figure list: %+v", c.q, h)
			}
		}
	}
}
