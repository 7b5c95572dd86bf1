package testpdf

import "github.com/go-pdf/fpdf"

// Drawn returns a deterministic A4 PDF (points, top-left origin) with one
// page per function, each drawing its page with fpdf: tables with rules,
// figures of vector shapes, display formulas.
func Drawn(pages ...func(f *fpdf.Fpdf)) []byte {
	if len(pages) == 0 {
		panic("testpdf: a generated PDF needs at least one page; use ZeroPages")
	}
	return render(func(f *fpdf.Fpdf, _ func(string) string) {
		for _, draw := range pages {
			f.AddPage()
			draw(f)
		}
	})
}
