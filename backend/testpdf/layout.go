package testpdf

import (
	"bytes"
	"fmt"

	"github.com/go-pdf/fpdf"
)

// Article describes a page laid out like a two-column paper: a title and
// an abstract across the page, two columns of body text (Left is set
// first, Right beside it, starting at the same height), and an optional
// caption across the page below the columns.
type Article struct {
	Title    string
	Abstract string
	Left     []string // paragraphs of the left column
	Right    []string // paragraphs of the right column
	Caption  string
}

// Geometry of Article pages (points, A4).
const (
	margin    = 56.0
	columnW   = 230.0
	gutter    = 23.0
	lineH     = 13.0
	bodyFontS = 10.0
)

// TwoColumns returns a PDF with one Article per page. Lines of the two
// columns share baselines, so reading by height alone interleaves them.
func TwoColumns(pages ...Article) []byte {
	return render(func(f *fpdf.Fpdf, tr func(string) string) {
		for _, a := range pages {
			f.AddPage()
			f.SetFont("Helvetica", "B", 16)
			f.MultiCell(0, 20, tr(a.Title), "", "C", false)
			f.Ln(6)
			f.SetFont("Helvetica", "", bodyFontS)
			f.MultiCell(0, lineH, tr(a.Abstract), "", "L", false)
			f.Ln(10)
			top := f.GetY()
			bottom := column(f, tr, margin, top, a.Left)
			bottom = max(bottom, column(f, tr, margin+columnW+gutter, top, a.Right))
			if a.Caption != "" {
				f.SetXY(margin, bottom+12)
				f.SetFont("Helvetica", "I", 9)
				f.MultiCell(0, 12, tr(a.Caption), "", "L", false)
			}
		}
	})
}

// column sets paragraphs at x from top and returns the bottom edge.
func column(f *fpdf.Fpdf, tr func(string) string, x, top float64, paras []string) float64 {
	f.SetFont("Helvetica", "", bodyFontS)
	f.SetXY(x, top)
	for i, p := range paras {
		if i > 0 {
			f.Ln(4)
			f.SetX(x)
		}
		f.SetLeftMargin(x)
		f.MultiCell(columnW, lineH, tr(p), "", "L", false)
	}
	f.SetLeftMargin(margin)
	return f.GetY()
}

// Figure is an image placed on a page (points, origin at the top left).
type Figure struct {
	X, Y, W, H float64
	PNG        []byte
}

// Illustrated describes a page with an optional body text and figures
// drawn over it.
type Illustrated struct {
	Body    string
	Figures []Figure
}

// Illustrations returns a PDF with one Illustrated page per argument.
func Illustrations(pages ...Illustrated) []byte {
	n := 0
	return render(func(f *fpdf.Fpdf, tr func(string) string) {
		for _, p := range pages {
			f.AddPage()
			if p.Body != "" {
				f.SetFont("Helvetica", "", 11)
				f.MultiCell(0, 14, tr(p.Body), "", "L", false)
			}
			for _, fig := range p.Figures {
				n++
				name := fmt.Sprintf("img%d", n)
				opts := fpdf.ImageOptions{ImageType: "PNG"}
				f.RegisterImageOptionsReader(name, opts, bytes.NewReader(fig.PNG))
				f.ImageOptions(name, fig.X, fig.Y, fig.W, fig.H, false, opts, 0, "")
			}
		}
	})
}

// render runs draw on a fresh deterministic A4 document and returns it.
func render(draw func(f *fpdf.Fpdf, tr func(string) string)) []byte {
	f := fpdf.New("P", "pt", "A4", "")
	f.SetCreationDate(fixedDate)
	f.SetModificationDate(fixedDate)
	f.SetCompression(false)
	f.SetMargins(margin, margin, margin)
	f.SetAutoPageBreak(false, margin)
	draw(f, f.UnicodeTranslatorFromDescriptor(""))
	var out bytes.Buffer
	if err := f.Output(&out); err != nil {
		panic(fmt.Sprintf("testpdf: %v", err))
	}
	return out.Bytes()
}
