package pdf

import (
	"bytes"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"

	"vika/backend/corpus"
	"vika/backend/testpdf"
)

// text writes s at (x, baseline y) in font family at size.
func text(f *fpdf.Fpdf, family string, size, x, y float64, s string) {
	f.SetFont(family, "", size)
	f.Text(x, y, s)
}

// drawTable draws a booktabs-style table: caption above, top rule, header,
// mid rule, rows, bottom rule.
func drawTable(f *fpdf.Fpdf) {
	text(f, "Helvetica", 10, 72, 100, "Table 2: Error rates of three models on the test set.")
	f.SetLineWidth(0.8)
	f.Line(100, 110, 480, 110)
	cols := []float64{110, 260, 380}
	for j, h := range []string{"model", "top-1 err.", "top-5 err."} {
		text(f, "Helvetica", 9, cols[j], 124, h)
	}
	f.SetLineWidth(0.4)
	f.Line(100, 130, 480, 130)
	rows := [][]string{{"VGG-16", "28.07", "9.33"}, {"ResNet-50", "22.85", "6.71"}, {"ResNet-152", "21.43", "5.71"}}
	for i, r := range rows {
		for j, c := range r {
			text(f, "Helvetica", 9, cols[j], 144+float64(i)*14, c)
		}
	}
	f.SetLineWidth(0.8)
	f.Line(100, 180, 480, 180)
	text(f, "Helvetica", 10, 72, 220, "Table 2 summarizes the errors; running text below a table is not part of it.")
}

// drawFigure draws a block diagram (boxes, arrows, labels) with its
// caption below.
func drawFigure(f *fpdf.Fpdf) {
	f.SetLineWidth(1)
	f.Rect(150, 300, 100, 40, "D")
	f.Rect(330, 300, 100, 40, "D")
	f.Line(250, 320, 330, 320)
	f.Polygon([]fpdf.PointType{{X: 322, Y: 316}, {X: 330, Y: 320}, {X: 322, Y: 324}}, "F")
	text(f, "Helvetica", 9, 165, 324, "ENCODER")
	text(f, "Helvetica", 9, 345, 324, "DECODER")
	text(f, "Helvetica", 10, 150, 370, "Figure 3. The encoder feeds the decoder.")
}

// drawFormula draws a numbered display equation.
func drawFormula(f *fpdf.Fpdf) {
	text(f, "Helvetica", 10, 72, 450, "The loss is defined as follows, for every sample of the training set.")
	text(f, "Helvetica", 11, 230, 480, "y = f(x) + e")
	text(f, "Helvetica", 10, 500, 480, "(4)")
	text(f, "Helvetica", 10, 72, 510, "where the terms are those of the previous section, as said before.")
}

func detect(t *testing.T, draw ...func(f *fpdf.Fpdf)) Page {
	t.Helper()
	d, err := Open(testpdf.Drawn(func(f *fpdf.Fpdf) {
		for _, dr := range draw {
			dr(f)
		}
	}), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p, err := d.Page(1)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.DetectRegions(&p); err != nil {
		t.Fatal(err)
	}
	return p
}

func regionsOf(p Page, k corpus.ChunkKind) []corpus.Region {
	var out []corpus.Region
	for _, r := range p.Regions {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out
}

func TestDetectRuledTable(t *testing.T) {
	p := detect(t, drawTable)
	ts := regionsOf(p, corpus.ChunkTable)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %+v", p.Regions)
	}
	tb := ts[0]
	want := strings.Join([]string{
		"| model | top-1 err. | top-5 err. |",
		"| --- | --- | --- |",
		"| VGG-16 | 28.07 | 9.33 |",
		"| ResNet-50 | 22.85 | 6.71 |",
		"| ResNet-152 | 21.43 | 5.71 |",
	}, "\n")
	if tb.Text != want {
		t.Errorf("markdown:\n%s\nwant:\n%s", tb.Text, want)
	}
	if tb.Caption != "Table 2: Error rates of three models on the test set." {
		t.Errorf("caption %q", tb.Caption)
	}
	// The box runs from the top rule to the bottom rule.
	if b := tb.BBox; b[0] > 101 || b[2] < 479 || b[1] < 108 || b[1] > 111 || b[3] < 179 || b[3] > 182 {
		t.Errorf("box %v, want about [100 110 480 180]", b)
	}
	if tb.Page != 1 || tb.Image != nil {
		t.Errorf("page %d, image %d bytes", tb.Page, len(tb.Image))
	}
}

func TestDetectFigureWithCrop(t *testing.T) {
	p := detect(t, drawFigure)
	fs := regionsOf(p, corpus.ChunkFigure)
	if len(fs) != 1 {
		t.Fatalf("want 1 figure, got %+v", p.Regions)
	}
	fg := fs[0]
	if fg.Caption != "Figure 3. The encoder feeds the decoder." {
		t.Errorf("caption %q", fg.Caption)
	}
	if !strings.Contains(fg.Text, "ENCODER") || !strings.Contains(fg.Text, "DECODER") || strings.Contains(fg.Text, "Figure 3") {
		t.Errorf("inner text %q: want the labels, not the caption", fg.Text)
	}
	if b := fg.BBox; b[0] > 151 || b[2] < 429 || b[1] > 301 || b[3] < 339 || b[3] > 355 {
		t.Errorf("box %v, want about [150 300 430 340]", b)
	}
	img, err := png.Decode(bytes.NewReader(fg.Image))
	if err != nil {
		t.Fatalf("crop: %v", err)
	}
	// 150 dpi: 280 x 40 pt is about 583 x 83 pixels.
	if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w < 550 || w > 620 || h < 80 || h*w > maxCropPixels {
		t.Errorf("crop %dx%d", w, h)
	}
}

func TestDetectFormula(t *testing.T) {
	p := detect(t, drawFormula)
	fs := regionsOf(p, corpus.ChunkFormula)
	if len(fs) != 1 {
		t.Fatalf("want 1 formula, got %+v", p.Regions)
	}
	if fs[0].Text != "y = f(x) + e (4)" || fs[0].Caption != "(4)" {
		t.Errorf("formula %q caption %q, want the equation and its number", fs[0].Text, fs[0].Caption)
	}
}

func TestDetectAllOnOnePage(t *testing.T) {
	p := detect(t, drawTable, drawFigure, drawFormula)
	got := map[corpus.ChunkKind]int{}
	for _, r := range p.Regions {
		got[r.Kind]++
	}
	if got[corpus.ChunkTable] != 1 || got[corpus.ChunkFigure] != 1 || got[corpus.ChunkFormula] != 1 || len(p.Regions) != 3 {
		t.Errorf("regions %v, want one of each", got)
	}
	for i := 1; i < len(p.Regions); i++ {
		if p.Regions[i].BBox[1] < p.Regions[i-1].BBox[1] {
			t.Errorf("regions not in page order: %v", p.Regions)
		}
	}
}

func TestNoRegionsInProse(t *testing.T) {
	d, err := Open(testpdf.Text("Table 2 summarizes our results. Figure 3 shows more. "+testpdf.Words("prose", 300)), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p, err := d.Page(1)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.DetectRegions(&p); err != nil {
		t.Fatal(err)
	}
	if len(p.Regions) != 0 {
		t.Errorf("prose gave regions: %+v", p.Regions)
	}
}

// Vaswani et al.'s equation (1) comes from MuPDF as two blocks, the
// denominator's drop starting the second: the formula is the whole
// equation, not only its tail "√dk )V (1)" (which the old detector kept).
func TestDetectFormulaAcrossBlocks(t *testing.T) {
	data, err := os.ReadFile(testpdf.SharedPDF(t, "vaswani2017_attention_is_all_you_need.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p, err := d.Page(4)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.DetectRegions(&p); err != nil {
		t.Fatal(err)
	}
	var eq *corpus.Region
	for i, r := range p.Regions {
		if r.Kind == corpus.ChunkFormula && r.Caption == "(1)" {
			eq = &p.Regions[i]
		}
	}
	if eq == nil {
		t.Fatalf("no formula (1) on page 4: %+v", p.Regions)
	}
	for _, want := range []string{"Attention(Q, K, V", "softmax(", "√dk", "(1)"} {
		if !strings.Contains(eq.Text, want) {
			t.Errorf("formula (1) %q lacks %q", eq.Text, want)
		}
	}
	if eq.BBox[0] > 300 { // the whole equation starts at x≈220 pt, its tail at 358
		t.Errorf("formula (1)'s box %v starts at its tail", eq.BBox)
	}
	for _, r := range p.Regions {
		if r.Kind == corpus.ChunkFormula && strings.Contains(r.Text, "values.") {
			t.Errorf("a formula took prose: %q", r.Text)
		}
	}
	// Every page is detected (page 7 made the first version of the join read an empty run).
	for n := 1; n <= d.NumPages(); n++ {
		pg, err := d.Page(n)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.DetectRegions(&pg); err != nil {
			t.Errorf("page %d: %v", n, err)
		}
	}
}

// drawTallTable draws a captioned table whose body, under the header's
// rule, is taller than ruleChainGap with no rule inside (a full-page
// table, or a block of multi-line rows), and, when prose is set, the
// same rules around two columns of running text instead.
func drawTallTable(prose bool) func(f *fpdf.Fpdf) {
	return func(f *fpdf.Fpdf) {
		text(f, "Helvetica", 10, 72, 60, "Table 4: Methods with their retrieval source and granularity.")
		f.SetLineWidth(0.8)
		f.Line(72, 70, 540, 70)
		cols := []float64{80, 220, 360, 460}
		for j, h := range []string{"Method", "Source", "Granularity", "Stage"} {
			text(f, "Helvetica", 9, cols[j], 84, h)
		}
		f.SetLineWidth(0.4)
		f.Line(72, 90, 540, 90)
		for i := range 16 {
			y := 104 + float64(i)*14
			if prose {
				text(f, "Helvetica", 9, 72, y, "Running text of the left column goes on here, line")
				text(f, "Helvetica", 9, 312, y, "and the right column holds more of the same prose.")
				continue
			}
			for j, c := range []string{"Method" + string(rune('A'+i)), "Wikipedia", []string{"Phrase", "Sentence", "Chunk"}[i%3], "Tuning"} {
				text(f, "Helvetica", 9, cols[j], y, c)
			}
		}
		f.SetLineWidth(0.8)
		f.Line(72, 330, 540, 330)
	}
}

// TestRuledTableTallerThanChainGap: the chain of rules crosses a gap
// longer than ruleChainGap when the rows between have a grid's shape,
// and not when they are two columns of prose.
func TestRuledTableTallerThanChainGap(t *testing.T) {
	ts := regionsOf(detect(t, drawTallTable(false)), corpus.ChunkTable)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %+v", ts)
	}
	if b := ts[0].BBox; b[3] < 329 {
		t.Errorf("box %v ends above the bottom rule (330)", b)
	}
	if rows := strings.Count(ts[0].Text, "\n") - 1; rows != 16 || !strings.Contains(ts[0].Text, "| MethodP | Wikipedia | Phrase | Tuning |") {
		t.Errorf("%d rows, want the 16 rows to the last:\n%s", rows, ts[0].Text)
	}
	for _, r := range regionsOf(detect(t, drawTallTable(true)), corpus.ChunkTable) {
		if r.BBox[3] > 100 || strings.Contains(r.Text, "Running text") {
			t.Errorf("prose read as a table's rows: box %v\n%s", r.BBox, r.Text)
		}
	}
}
