package chunk

import "vika/backend/corpus"

// ocrBox is the box to highlight for the text span [start, end) of a
// page: the union of the boxes of the OCR lines (lines without a font
// size, placed from Tesseract's word boxes) that overlap it; nil when no
// OCR line does (a text-layer page is highlighted from its text).
func ocrBox(p corpus.Page, start, end int) *[4]float64 {
	var box *[4]float64
	for _, l := range p.Lines {
		if l.Size > 0 || l.End <= start || l.Start >= end || l.BBox[2] <= l.BBox[0] || l.BBox[3] <= l.BBox[1] {
			continue
		}
		if box == nil {
			b := l.BBox
			box = &b
			continue
		}
		box[0], box[1] = min(box[0], l.BBox[0]), min(box[1], l.BBox[1])
		box[2], box[3] = max(box[2], l.BBox[2]), max(box[3], l.BBox[3])
	}
	return box
}
