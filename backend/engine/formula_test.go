package engine

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/pdf"
	"vika/backend/retrieve"
	"vika/backend/testpdf"
)

// formulaPaper adds a one-page paper with two numbered display equations
// (found by the real detector) and returns its id and the formulas.
func formulaPaper(t *testing.T, e *Engine) (string, []corpus.Region) {
	t.Helper()
	data := testpdf.Drawn(func(f *fpdf.Fpdf) {
		f.SetFont("Helvetica", "", 10)
		f.Text(72, 100, "The loss is defined as follows, for every sample of the training set.")
		f.SetFont("Helvetica", "", 11)
		f.Text(230, 130, "y = f(x) + e")
		f.SetFont("Helvetica", "", 10)
		f.Text(500, 130, "(4)")
		f.Text(72, 160, "where the terms are those of the previous section, as said before.")
		f.Text(72, 200, "The gradient of the loss with respect to the scale is then written below.")
		f.SetFont("Helvetica", "", 11)
		f.Text(230, 230, "g = dL / ds + c")
		f.SetFont("Helvetica", "", 10)
		f.Text(500, 230, "(5)")
		f.Text(72, 260, "which the optimiser follows at every step of the training described above.")
	})
	doc := mustAdd(t, e, "loss.pdf", data)
	var out []corpus.Region
	regions, err := e.Regions(context.Background(), doc.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range regions {
		if r.Kind == corpus.ChunkFormula {
			out = append(out, r)
		}
	}
	if len(out) != 2 {
		t.Fatalf("the detector found %d formulas, want 2: %+v", len(out), regions)
	}
	return doc.ID, out
}

// TestDescribeFormulasIndexesLaTeX: with Formulas on, each display
// formula goes to the describer with a crop of its box rendered now (a
// PNG at a readable resolution); valid LaTeX is kept with the region and
// indexed beside its text, so a search with LaTeX words finds it; prose
// is refused and the formula keeps its text; the cap counts formulas.
func TestDescribeFormulasIndexesLaTeX(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	id, formulas := formulaPaper(t, e)
	var crops [][]byte
	d := func(ctx context.Context, r corpus.Region, lang string) (string, error) {
		if r.Kind != corpus.ChunkFormula {
			t.Errorf("asked about a %s", r.Kind)
		}
		crops = append(crops, r.Image)
		if r.Caption == "(4)" {
			return "```latex\n\\hat{y} = \\frac{\\partial \\mathcal{L}}{\\partial \\sigma_{i}} + \\epsilon\n```", nil
		}
		return "The image shows the gradient of the loss with respect to the scale parameter.", nil
	}

	// Formulas off: nothing to do (the paper has no figure nor table).
	if rep, err := e.Describe(ctx, id, d, DescribeOptions{Max: 10}); err != nil || rep != (DescribeReport{}) || len(crops) != 0 {
		t.Fatalf("formulas off: %+v %v, %d asked", rep, err, len(crops))
	}
	// The cap: one of the two.
	var progress [][2]int
	rep, err := e.Describe(ctx, id, d, DescribeOptions{Max: 1, Formulas: true, Progress: func(done, total int) { progress = append(progress, [2]int{done, total}) }})
	if err != nil || rep != (DescribeReport{Formulas: 1, OverCap: 1}) || len(progress) != 1 || progress[0] != [2]int{1, 1} {
		t.Fatalf("cap 1: %+v %v, progress %v", rep, err, progress)
	}
	if len(crops) != 1 {
		t.Fatalf("%d crops sent", len(crops))
	}
	img, err := png.Decode(bytes.NewReader(crops[0]))
	if err != nil {
		t.Fatalf("the crop is not a PNG: %v", err)
	}
	// 300 dpi over the formula's box and its margins: a readable crop.
	box := formulas[0].BBox
	wantW := int((box[2] - box[0] + 2*formulaMargin) * formulaDPI / 72)
	if w := img.Bounds().Dx(); w < wantW-2 || w > wantW+2 || img.Bounds().Dy() < 40 {
		t.Errorf("crop %v, want about %d px wide (box %v)", img.Bounds(), wantW, box)
	}
	if !hasInk(crops[0]) {
		t.Error("the crop is blank")
	}

	hits, err := e.Search(ctx, retrieve.Query{Question: `\frac sigma`}, SearchOptions{Mode: "bm25", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits.Hits) == 0 || !strings.HasSuffix(hits.Hits[0].ChunkID, DescribedSuffix) || hits.Hits[0].Kind != corpus.ChunkFormula ||
		!strings.Contains(hits.Hits[0].Text, `LaTeX: \hat{y} = \frac{\partial \mathcal{L}}{\partial \sigma_{i}} + \epsilon`) ||
		!strings.Contains(hits.Hits[0].Text, "y = f(x) + e") {
		t.Fatalf("search by LaTeX words: %+v", hits.Hits)
	}
	regions, _ := e.Regions(ctx, id, false)
	if hits.Hits[0].BBox == nil || *hits.Hits[0].BBox != regions[0].BBox || regions[0].Caption != "(4)" ||
		regions[0].Description != `\hat{y} = \frac{\partial \mathcal{L}}{\partial \sigma_{i}} + \epsilon` {
		t.Errorf("the formula keeps %+v; the hit's box %v", regions[0], hits.Hits[0].BBox)
	}

	// The second formula: its answer is prose, refused; it keeps its text.
	rep, err = e.Describe(ctx, id, d, DescribeOptions{Max: 10, Formulas: true})
	if err != nil || rep != (DescribeReport{Refused: 1, Already: 1}) {
		t.Fatalf("second run: %+v %v", rep, err)
	}
	regions, _ = e.Regions(ctx, id, false)
	for _, r := range regions {
		if r.Caption == "(5)" && (r.Description != "" || r.Text != "g = dL / ds + c (5)") {
			t.Errorf("the refused formula: %+v", r)
		}
	}
	chunks, _ := e.Chunks(ctx, id)
	described := 0
	for _, c := range chunks {
		if strings.HasSuffix(c.ID, DescribedSuffix) {
			described++
		}
	}
	if described != 1 {
		t.Errorf("%d LaTeX passages, want 1", described)
	}
}

// TestDescribeFormulasCancel: cancelling while a formula is transcribed
// stops the run; what was done stays.
func TestDescribeFormulasCancel(t *testing.T) {
	e := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	id, _ := formulaPaper(t, e)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	rep, err := e.Describe(ctx, id, func(ctx context.Context, r corpus.Region, _ string) (string, error) {
		calls++
		if calls == 1 {
			return `y = f(x) + \varepsilon`, nil
		}
		cancel()
		<-ctx.Done()
		return "", ctx.Err()
	}, DescribeOptions{Max: 10, Formulas: true})
	if !errors.Is(err, context.Canceled) || rep != (DescribeReport{Formulas: 1}) || calls != 2 {
		t.Fatalf("cancelled: %+v %v, %d calls", rep, err, calls)
	}
	rep, err = e.Describe(context.Background(), id, func(context.Context, corpus.Region, string) (string, error) { return `g = \nabla_s L + c`, nil },
		DescribeOptions{Max: 10, Formulas: true})
	if err != nil || rep != (DescribeReport{Formulas: 1, Already: 1}) {
		t.Errorf("after the cancel: %+v %v", rep, err)
	}
}

// hasInk reports whether a PNG has dark pixels.
func hasInk(b []byte) bool {
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return false
	}
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if g, _, _, _ := img.At(x, y).RGBA(); g < 0x4000 {
				return true
			}
		}
	}
	return false
}

// cropFailing opens readers whose Crop always fails, as when the PDF
// worker that renders a crop crashes or runs over its budget.
type cropFailing struct{ ingest.Opener }

func (o cropFailing) Open(ctx context.Context, data []byte, opts ingest.Options) (ingest.Reader, error) {
	r, err := o.Opener.Open(ctx, data, opts)
	if err != nil {
		return nil, err
	}
	return cropFails{r}, nil
}

type cropFails struct{ ingest.Reader }

func (cropFails) Crop(context.Context, int, pdf.Rect, float64) ([]byte, error) {
	return nil, errors.New("the PDF worker crashed")
}

// TestDescribeFormulasCropFails: a formula whose crop cannot be rendered
// is skipped and counted; the job goes on, and a later run transcribes it.
func TestDescribeFormulasCropFails(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	id, _ := formulaPaper(t, e)
	tex := func(context.Context, corpus.Region, string) (string, error) { return `y = f(x) + \varepsilon`, nil }
	real := e.opts.Opener
	e.opts.Opener = cropFailing{real}
	rep, err := e.Describe(ctx, id, tex, DescribeOptions{Max: 10, Formulas: true})
	if err != nil || rep != (DescribeReport{Uncropped: 2}) {
		t.Fatalf("crops failing: %+v %v", rep, err)
	}
	e.opts.Opener = real
	rep, err = e.Describe(ctx, id, tex, DescribeOptions{Max: 10, Formulas: true})
	if err != nil || rep != (DescribeReport{Formulas: 2}) {
		t.Fatalf("crops back: %+v %v", rep, err)
	}
}
