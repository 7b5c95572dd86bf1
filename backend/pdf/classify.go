package pdf

import "vika/backend/corpus"

// Density thresholds of the page classification rule (the baseline), in
// characters per square point.
const (
	DenseText  = 0.01
	SparseText = 0.001
)

// Classify applies the baseline page rule (text density) to a page with
// chars characters of text on a page of the given area (pt^2):
//
//	density >= 0.01:                  text, or illustrative with images
//	0.001 <= density < 0.01:          mixed with images, otherwise text
//	density < 0.001:                  scanned with images, otherwise text
//
// Every image counts, even a rule drawn as a 1x1-pixel image: Page uses
// the refined rule described at Class instead.
func Classify(chars int, area float64, hasImages bool) corpus.PageType {
	d := Density(chars, area)
	switch {
	case !hasImages:
		return corpus.PageText
	case d >= DenseText:
		return corpus.PageIllustrative
	case d >= SparseText:
		return corpus.PageMixed
	default:
		return corpus.PageScanned
	}
}

// Density is chars / area, or 0 for a degenerate page.
func Density(chars int, area float64) float64 {
	if area <= 0 {
		return 0
	}
	return float64(chars) / area
}

// Class is the classification of a page. The refined rule ("a page whose
// text layer is complete is not OCRed, and only image regions large
// enough to hold text are"):
//
//   - scanned: the text layer is (nearly) empty, density < SparseText,
//     and large images cover at least ScanCover of the page; or the text
//     layer is mostly unreadable (more U+FFFD/private-use characters
//     than real ones). The full page is rendered and OCRed.
//   - mixed: some large image region has no text layer over it and its
//     pixels hold text (Image.OCR): those regions, and only they, are
//     OCRed.
//   - illustrative: large images without text layer over them, none
//     holding text (photos, drawings, figures whose labels are typeset).
//   - text: no such image, including blank and near-blank pages: tiny
//     images, rules and backgrounds under text (Image.covered) are
//     ignored.
type Class struct {
	Type     corpus.PageType
	Baseline corpus.PageType // the baseline rule, for comparison
	Chars    int             // non-space characters of Page.Text
	Density  float64         // Chars per pt^2
	// Unreadable counts characters dropped from the text layer because
	// their font has no Unicode mapping (U+FFFD, private use).
	Unreadable int
	// Complete: the text layer holds all the page's text; nothing to OCR.
	Complete bool
	// ScanPPI is, on a scanned page, the resolution of its largest image
	// as drawn (pixels per inch along its coarser side): the made French
	// scan is 204, the 1985 one 300. 0 when unknown or not scanned.
	ScanPPI float64
}

// ScanCover is the share of the page that large images must cover for a
// page without text layer to be a scan ("most of the page": the real
// 1985 scan covers 58% of its letter page, the made-up one 98%).
const ScanCover = 0.5

// classify sets p.Class and the OCR flags of p.Images. A region MuPDF
// cannot draw is not worth OCR (its rendering would fail too).
func (d *Document) classify(p *Page, unreadable int) {
	area := p.Width * p.Height
	c := Class{Chars: countChars(p.Text), Unreadable: unreadable}
	c.Density = Density(c.Chars, area)
	c.Baseline = Classify(c.Chars, area, p.rawImages > 0)
	pictures := 0
	var large []Rect
	for _, im := range p.Images {
		if im.Large {
			large = append(large, im.BBox)
			if !im.covered() {
				pictures++
			}
		}
	}
	cover := unionCover(large, Rect{0, 0, p.Width, p.Height})
	switch {
	case p.rawImages > MaxPageImages:
		c.Type = corpus.PageText // never OCRed: see MaxPageImages
	case c.Density < SparseText && cover >= ScanCover, unreadable > c.Chars && unreadable >= 50:
		c.Type = corpus.PageScanned
	case pictures == 0:
		c.Type = corpus.PageText
	default:
		c.Type = corpus.PageIllustrative
		lines, checked := p.Lines(), 0
		for i, im := range p.Images {
			if !im.Large || im.covered() || checked == maxDetect {
				continue
			}
			checked++
			if ok, err := d.regionHoldsText(p.Number, im.BBox, lines); err == nil && ok {
				p.Images[i].OCR = true
				c.Type = corpus.PageMixed
			}
		}
	}
	c.Complete = c.Type == corpus.PageText || c.Type == corpus.PageIllustrative
	if c.Type == corpus.PageScanned {
		c.ScanPPI = d.scanPPI(p.Number)
	}
	p.Class = c
}

// scanPPI returns the resolution of the largest image drawn on page n (0
// when it cannot be told): the scan's own, which OCR may render at
// instead of upsampling it.
func (d *Document) scanPPI(n int) float64 {
	if d == nil || d.fz == nil { // classified without a document (tests)
		return 0
	}
	draws, err := imageDraws(d.fz, n-1, d.deadline)
	if err != nil {
		return 0
	}
	best, area := 0.0, 0.0
	for _, im := range draws {
		if a := im.Box.Area(); a > area {
			best, area = im.ppi(), a
		}
	}
	return best
}

// OCRRegions returns the image regions of a mixed page worth OCR. A
// scanned page is OCRed whole (Render) and returns nil.
func (p Page) OCRRegions() []Rect {
	if p.Class.Type != corpus.PageMixed {
		return nil
	}
	var out []Rect
	for _, im := range p.Images {
		if im.OCR {
			out = append(out, im.BBox)
		}
	}
	return out
}

// OCRCalls is the number of OCR calls the page needs: 1 for a scanned
// page, one per region for a mixed one, 0 otherwise.
func (p Page) OCRCalls() int {
	if p.Class.Type == corpus.PageScanned {
		return 1
	}
	return len(p.OCRRegions())
}
