package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/latex"
	"vika/backend/pdf"
)

// Formula crops: rendered when a formula is to be transcribed (ingest
// keeps no crop of formulas), at formulaDPI so that indices and accents
// stay readable, with formulaMargin points around the box of the
// formula's characters (MuPDF may set it tighter than the ink of a
// radical or a large operator).
const (
	formulaDPI    = 300
	formulaMargin = 3
)

// formulaCrops renders the crops of one document's formulas in a PDF
// worker, opened on the first crop and closed by close.
type formulaCrops struct {
	e      *Engine
	docID  string
	reader ingest.Reader
}

func (e *Engine) formulaCropper(docID string) *formulaCrops {
	return &formulaCrops{e: e, docID: docID}
}

// crop renders r's box, with its margin, as a PNG.
func (f *formulaCrops) crop(ctx context.Context, r corpus.Region) ([]byte, error) {
	if f.reader == nil {
		_, data, err := f.e.DocumentFile(ctx, f.docID)
		if err != nil {
			return nil, err
		}
		if f.reader, err = f.e.opts.Opener.Open(ctx, data, f.e.opts); err != nil {
			return nil, fmt.Errorf("cannot open the PDF again to crop its formulas: %w", err)
		}
	}
	c, ok := f.reader.(ingest.Cropper)
	if !ok {
		return nil, errors.New("this PDF reader cannot crop formulas")
	}
	box := pdf.Rect{X0: r.BBox[0] - formulaMargin, Y0: r.BBox[1] - formulaMargin, X1: r.BBox[2] + formulaMargin, Y1: r.BBox[3] + formulaMargin}
	return c.Crop(ctx, r.Page, box, formulaDPI)
}

func (f *formulaCrops) close() {
	if f.reader != nil {
		f.reader.Close()
	}
}

// formulaPassage is the text indexed for a formula's LaTeX: the formula
// as extracted (Unicode math), its LaTeX, and the names of the LaTeX
// commands it uses ("frac", "sigma"), which a word of the LaTeX such as
// "\sigma_{i}" does not give the lexical index on its own.
func formulaPassage(r corpus.Region, tex string) string {
	parts := []string{strings.TrimSpace(r.Text), "LaTeX: " + tex}
	if w := latex.Words(tex); w != "" {
		parts = append(parts, w)
	}
	return strings.Join(parts, "\n")
}
