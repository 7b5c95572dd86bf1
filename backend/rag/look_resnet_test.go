package rag

import (
	"bytes"
	"context"
	"image/png"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/llm/llmtest"
	"vika/backend/retrieve"
	"vika/backend/testpdf"
)

// TestResNetFigureReachesTheVisionModel ingests the ResNet paper with
// table and figure detection, asks what its Figure 4 shows, and checks
// that Gemini (a fake speaking its wire format) receives that figure's
// crop, a real PNG, labelled by the source on its page.
func TestResNetFigureReachesTheVisionModel(t *testing.T) {
	eng, doc := resNetSession(t)
	p := newProviders(t, func(llmtest.Request) llmtest.Reply {
		return geminiSays("Figure 4 shows the training error of plain and residual networks on ImageNet [he2015_resnet.pdf p.5].")
	}, func(llmtest.Request) llmtest.Reply { return groqSays("unused") }, 0)
	a, err := New(eng, p.svc, Config{}).Ask(t.Context(), "What does Figure 4 show about plain and residual networks on ImageNet?", testOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	texts, images := geminiImages(t, p.gemini.Last().Body)
	if len(images) == 0 || a.Metrics.ImagesSent != len(images) {
		t.Fatalf("%d images sent, metrics say %d; sources %v", len(images), a.Metrics.ImagesSent, labelsOf(a.Sources))
	}
	var fig4 *corpus.Region
	for _, s := range a.Sources {
		for _, r := range eng.RegionsOn(t.Context(), doc.ID, s.Page) {
			if strings.HasPrefix(r.Caption, "Figure 4") {
				fig4 = &r
			}
		}
	}
	if fig4 == nil {
		t.Fatalf("no source page holds Figure 4: %v", labelsOf(a.Sources))
	}
	if !bytes.Equal(images[0], fig4.Image) {
		t.Errorf("the first image is not Figure 4's crop")
	}
	img, err := png.Decode(bytes.NewReader(images[0]))
	if err != nil {
		t.Fatalf("the crop received is not a PNG: %v", err)
	}
	if !strings.Contains(texts[1], "(figure: \"Figure 4") {
		t.Errorf("label = %q", texts[1])
	}
	t.Logf("Figure 4 on page %d, box %v: %dx%d px, %d bytes; %d images sent, %d bytes of request",
		fig4.Page, fig4.BBox, img.Bounds().Dx(), img.Bounds().Dy(), len(images[0]), len(images), len(p.gemini.Last().Body))
}

func labelsOf(srcs []Source) []string {
	var out []string
	for _, s := range srcs {
		out = append(out, s.Label+"/"+string(s.Kind))
	}
	return out
}

// TestResNetFiguresDescribed describes the ResNet paper's figures (and
// summarises its tables) with a fake Gemini, and finds a figure by a word
// only its description holds.
func TestResNetFiguresDescribed(t *testing.T) {
	eng, doc := resNetSession(t)
	p := newProviders(t, func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.Body, "inlineData") {
			return geminiSays("A zigzagging quokkagram of training error against iterations.")
		}
		return geminiSays("A table of error rates.")
	}, nil, 0)
	d, err := New(eng, p.svc, Config{}).Describer(t.Context(), "gemini/gemini-2.5-flash")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eng.Describe(t.Context(), doc.ID, d, engine.DescribeOptions{Max: 100, Tables: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ResNet: %+v (document counts %v), %d model calls", rep, doc.Regions, p.gemini.Count())
	if rep.Figures < 6 || rep.Tables < 10 || p.gemini.Count() != rep.Figures+rep.Tables {
		t.Errorf("report %+v, %d calls", rep, p.gemini.Count())
	}
	res, err := eng.Search(t.Context(), retrieve.Query{Question: "quokkagram"}, engine.SearchOptions{Mode: "bm25", K: 3})
	if err != nil || len(res.Hits) == 0 || res.Hits[0].Kind != corpus.ChunkFigure || !strings.HasSuffix(res.Hits[0].ChunkID, engine.DescribedSuffix) {
		t.Fatalf("search for a description: %+v %v", res.Hits, err)
	}
	if r, ok := eng.RegionOf(t.Context(), res.Hits[0].ChunkID); !ok || !strings.Contains(r.Description, "quokkagram") || len(r.Image) == 0 {
		t.Errorf("the description's passage leads to %+v %v", r.Caption, ok)
	}
}

// resNetSession is a session (without embeddings) holding the ResNet
// paper of ../shared/data, ingested with table and figure detection. It
// skips under -short: ingesting 12 pages in the PDF worker takes seconds,
// so these tests run in make test's quality step (QUALITY_PKGS).
func resNetSession(t *testing.T) (*engine.Engine, corpus.Document) {
	t.Helper()
	path := testpdf.SharedPDF(t, "he2015_resnet.pdf")
	if testing.Short() {
		t.Skip("ingests a 12-page paper in the PDF worker: run without -short (make test's quality step does)")
	}
	eng, err := engine.New(context.Background(), engine.Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	doc, err := docOf(eng.Ingest(t.Context(), path, nil))
	if err != nil {
		t.Fatal(err)
	}
	return eng, doc
}
