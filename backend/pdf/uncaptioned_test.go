package pdf

import (
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"

	"vika/backend/corpus"
)

// drawBareTable draws a booktabs table without caption: top rule, header,
// midrule, three rows, bottom rule.
func drawBareTable(f *fpdf.Fpdf) {
	f.SetLineWidth(0.8)
	f.Line(100, 450, 480, 450)
	cols := []float64{110, 260, 380}
	for j, h := range []string{"output map size", "32x32", "16x16"} {
		text(f, "Helvetica", 9, cols[j], 464, h)
	}
	f.SetLineWidth(0.4)
	f.Line(100, 470, 480, 470)
	for i, r := range [][]string{{"# layers", "1+2n", "2n"}, {"# filters", "16", "32"}, {"stride", "1", "2"}} {
		for j, c := range r {
			text(f, "Helvetica", 9, cols[j], 484+float64(i)*14, c)
		}
	}
	f.SetLineWidth(0.8)
	f.Line(100, 520, 480, 520)
}

// drawBareDiagram draws a flow chart without caption: three labelled boxes
// joined by arrows, and a loop drawn as a polygon.
func drawBareDiagram(f *fpdf.Fpdf) {
	f.SetLineWidth(1)
	for i, label := range []string{"INPUT", "HIDDEN", "OUTPUT"} {
		x := 100 + float64(i)*140
		f.Rect(x, 560, 90, 50, "D")
		text(f, "Helvetica", 9, x+20, 590, label)
		if i < 2 {
			f.Line(x+90, 585, x+140, 585)
			f.Polygon([]fpdf.PointType{{X: x + 132, Y: 581}, {X: x + 140, Y: 585}, {X: x + 132, Y: 589}}, "F")
		}
	}
	for i := 0; i < 6; i++ { // a loop above the hidden box, and ticks below
		x := 250 + float64(i)*10
		f.Polygon([]fpdf.PointType{{X: x, Y: 555}, {X: x + 5, Y: 540}, {X: x + 10, Y: 555}}, "D")
		f.Line(x, 615, x+4, 622)
	}
	f.SetLineWidth(0.5)
	f.Line(100, 630, 470, 630)
	text(f, "Helvetica", 8, 270, 641, "time")
}

// drawFramedProse draws two columns of prose between three rules close
// together, and a paragraph in a box: neither is a table nor a figure.
func drawFramedProse(f *fpdf.Fpdf) {
	f.SetLineWidth(0.5)
	for _, y := range []float64{440, 500, 560} {
		f.Line(72, y, 523, y)
	}
	for i := 0; i < 7; i++ {
		y := 455 + float64(i)*14
		text(f, "Helvetica", 9, 72, y, "the training of deep residual networks is easier than plain")
		text(f, "Helvetica", 9, 310, y, "networks of the same depth, as the experiments below show")
	}
	f.Rect(72, 600, 450, 60, "D")
	text(f, "Helvetica", 9, 80, 620, "Remark. A boxed paragraph stays running text, however it is framed on the page.")
}

// drawGlyphPlot draws a scatter plot whose points are the letter G
// between horizontal grid lines (as R's base graphics set them).
func drawGlyphPlot(f *fpdf.Fpdf) {
	f.SetLineWidth(0.3)
	for i := 0; i < 5; i++ {
		f.Line(100, 450+float64(i)*30, 400, 450+float64(i)*30)
	}
	for i := 0; i < 5; i++ {
		for j := 0; j < 3; j++ {
			text(f, "Helvetica", 6, 120+float64(j)*90+float64(i*7), 462+float64(i)*30, "G")
		}
	}
}

func TestDetectUncaptionedTable(t *testing.T) {
	p := detect(t, drawFigure, drawBareTable)
	ts := regionsOf(p, corpus.ChunkTable)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %+v", p.Regions)
	}
	want := strings.Join([]string{
		"| output map size | 32x32 | 16x16 |",
		"| --- | --- | --- |",
		"| # layers | 1+2n | 2n |",
		"| # filters | 16 | 32 |",
		"| stride | 1 | 2 |",
	}, "\n")
	if ts[0].Caption != "" || ts[0].Text != want {
		t.Errorf("caption %q, markdown:\n%s\nwant:\n%s", ts[0].Caption, ts[0].Text, want)
	}
	if b := ts[0].BBox; b[0] > 101 || b[2] < 479 || b[1] < 448 || b[1] > 451 || b[3] < 519 || b[3] > 522 {
		t.Errorf("box %v, want about [100 450 480 520]", b)
	}
	if fs := regionsOf(p, corpus.ChunkFigure); len(fs) != 1 || fs[0].Caption == "" {
		t.Errorf("the captioned figure: %+v", fs)
	}
}

func TestDetectUncaptionedDiagram(t *testing.T) {
	// The table above the diagram ends at its bottom rule: the diagram's
	// axis, a rule too, does not extend it across the drawing.
	p := detect(t, drawFigure, drawBareTable, drawBareDiagram)
	if ts := regionsOf(p, corpus.ChunkTable); len(ts) != 1 || ts[0].BBox[3] > 522 {
		t.Errorf("the table: %+v", ts)
	}
	fs := regionsOf(p, corpus.ChunkFigure)
	if len(fs) != 2 {
		t.Fatalf("want 2 figures, got %+v", p.Regions)
	}
	var bare corpus.Region
	for _, f := range fs {
		if f.Caption == "" {
			bare = f
		}
	}
	for _, label := range []string{"INPUT", "HIDDEN", "OUTPUT", "time"} {
		if !strings.Contains(bare.Text, label) {
			t.Errorf("inner text %q lacks %q", bare.Text, label)
		}
	}
	if b := bare.BBox; b[0] > 101 || b[2] < 469 || b[1] > 541 || b[3] < 640 || b[3] > 646 {
		t.Errorf("box %v, want about [100 540 470 643]", b)
	}
	if len(bare.Image) == 0 {
		t.Error("an uncaptioned diagram has no crop")
	}
}

func TestUncaptionedNeedsTheShape(t *testing.T) {
	for name, draw := range map[string]func(*fpdf.Fpdf){"framed prose": drawFramedProse, "glyph plot": drawGlyphPlot} {
		p := detect(t, drawFigure, draw)
		if n := len(p.Regions); n != 1 || p.Regions[0].Caption == "" {
			t.Errorf("%s: want only the captioned figure, got %+v", name, p.Regions)
		}
	}
	// Without any caption on a portrait page the paths are not read:
	// nothing uncaptioned is looked for (most pages pay nothing).
	if p := detect(t, drawBareTable, drawBareDiagram); len(p.Regions) != 0 {
		t.Errorf("a page without caption: %+v", p.Regions)
	}
}
