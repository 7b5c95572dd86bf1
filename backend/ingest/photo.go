package ingest

import (
	"context"
	"image"
	"math"
	"strconv"
	"strings"

	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/ocr"
	"vika/backend/pdf"
	"vika/backend/straighten"
)

// readPage recognises the render of a whole page the way a photo of a
// page needs: straightened first (straighten.Page: the page's outline
// unwarped, its lines levelled), and read again upside down when the
// first reading is poor (ocr.Poor), keeping the better. The words come
// back in page points on the page as rendered: the viewer shows the
// original picture, and the highlight must fit it.
func readPage(ctx context.Context, rec ocr.Recognizer, img *image.Gray, h ocr.Hints, dpi float64) (ocr.Result, []pdf.Word, error) {
	st, err := straighten.Page(ctx, img, dpi)
	if err != nil {
		return ocr.Result{}, nil, err
	}
	h.DPI = int(math.Round(st.DPI))
	res, err := rec.Recognize(ctx, st.Image, h)
	if err != nil {
		return ocr.Result{}, nil, err
	}
	if ocr.Poor(res) {
		down := st.UpsideDown()
		if again, err := rec.Recognize(ctx, down.Image, h); err == nil && again.Confidence > res.Confidence {
			st, res = down, again
		} else if err != nil && ctx.Err() != nil {
			return ocr.Result{}, nil, err
		}
	}
	return res, placeWords(res.Boxes, st.ToOriginal, img.Bounds().Min, dpi), nil
}

// placeWords maps word boxes read on a straightened render back onto
// the render (toRender; a slanted word gets the box that holds it), then
// to page points (the render's pixel (0, 0) is the page's top left, at
// origin).
func placeWords(boxes []ocr.WordBox, toRender straighten.Matrix, origin image.Point, dpi float64) []pdf.Word {
	s := dpi / 72
	out := make([]pdf.Word, 0, len(boxes))
	for _, b := range boxes {
		r := toRender.MapRect(b.Box).Sub(origin)
		out = append(out, pdf.Word{Text: b.Text, Line: b.Line, Para: b.Para,
			Box: pdf.Rect{X0: float64(r.Min.X) / s, Y0: float64(r.Min.Y) / s, X1: float64(r.Max.X) / s, Y1: float64(r.Max.Y) / s}})
	}
	return out
}

// MaxOCRPixels bounds the render of a whole page for OCR: an A3 page at
// 300 DPI (3508 x 4961). A photo added as a document is a page of its
// own pixels at whatever resolution its file claims (often 72 ppi: a
// 4000 x 3000 photo is then a page of 55 x 42 inches), which rendered at
// the OCR resolution would be 200 million pixels of upsampled photo.
const MaxOCRPixels = 3508 * 4961

// enoughPixels is an A4 page at 300 DPI: a scanned page holding that many
// pixels of its own is rendered at its own resolution, however low the
// resolution its file claims.
const enoughPixels = 2480 * 3508

// renderDPI is the resolution target t is rendered at when OCR's is dpi:
// a scan's own resolution between MinScanPPI and dpi (no upsampling), or
// below MinScanPPI when its own pixels are enough; never more than
// MaxOCRPixels for the whole page.
func renderDPI(t OCRTarget, dpi float64) float64 {
	area := t.Width * t.Height / (72 * 72) // square inches
	own := area * t.ScanPPI * t.ScanPPI
	switch {
	case t.Full && t.ScanPPI >= MinScanPPI && t.ScanPPI < dpi:
		dpi = math.Round(t.ScanPPI)
	case t.Full && t.ScanPPI > 0 && t.ScanPPI < MinScanPPI && own >= enoughPixels:
		dpi = math.Round(t.ScanPPI)
	}
	if t.Full && area > 0 && area*dpi*dpi > MaxOCRPixels {
		dpi = math.Floor(math.Sqrt(MaxOCRPixels / area))
	}
	return dpi
}

// poorOCR is the document's warning when OCR read some of its scanned
// pages poorly (ocr.PoorConfidence): their numbers (the first
// maxPoorListed, "..." after them) and the lowest confidence in percent;
// nil when none was.
func poorOCR(pages []corpus.Page) *message.Message {
	var listed []string
	n, low := 0, 1.0
	for _, p := range pages {
		if p.Type != corpus.PageScanned || p.OCRConfidence == nil || p.Failed() || strings.TrimSpace(p.Text) == "" {
			continue
		}
		if c := *p.OCRConfidence; c < ocr.PoorConfidence {
			if n < maxPoorListed {
				listed = append(listed, strconv.Itoa(p.Number))
			}
			n++
			low = min(low, c)
		}
	}
	if n == 0 {
		return nil
	}
	if n > maxPoorListed {
		listed = append(listed, "...")
	}
	m := message.New(message.OCRPoor, "pages", strings.Join(listed, ", "), "confidence", int(math.Round(low*100)))
	return &m
}

// maxPoorListed bounds the pages the poor-reading warning names.
const maxPoorListed = 10
