package pdf

import (
	"encoding/json"
	"fmt"
)

// MuPDF's structured text, as printed by fz_print_stext_page_as_json
// (MuPDF 1.24.9) with a scale of jsonScale. Measured on the real PDFs:
//
//	{"blocks":[
//	  {"type":"text","bbox":{"x":1165,"y":679,"w":3645,"h":346},"lines":[
//	    {"wmode":0,"bbox":{"x":..,"y":..,"w":..,"h":..},
//	     "font":{"name":"WQTLNC+NimbusRomNo9L-Medi","family":"serif","weight":"bold","style":"normal","size":143},
//	     "x":1165,"y":816,"text":"BERT: Pre-training of ..."}]},
//	  {"type":"image","bbox":{"x":0,"y":0,"w":3630,"h":360}}]}
//
// Every number is an integer: the value in points times the scale,
// truncated (hence the scale of 10, for 0.1 pt). "x" and "y" are the
// origin (baseline) of the line's first character; the font is the first
// character's. A MuPDF "line" is often a fragment: MuPDF starts a new one
// at wide gaps, at sub- and superscripts and at some font changes, so
// lines are rebuilt from fragments (line.go). Type 3 fonts report
// meaningless sizes (0.1 or 0.2 pt); control characters come out as
// \u00XX escapes; text outside the page (beamer overlays drawn off-page)
// is dropped by FZ_STEXT_MEDIABOX_CLIP.
const jsonScale = 10

type stextPage struct {
	Blocks []stextBlock `json:"blocks"`
}

type stextBlock struct {
	Type  string      `json:"type"` // "text" or "image"
	BBox  stextBox    `json:"bbox"`
	Lines []stextLine `json:"lines"`
}

type stextBox struct {
	X, Y, W, H float64
}

type stextLine struct {
	WMode int       `json:"wmode"`
	BBox  stextBox  `json:"bbox"`
	Font  stextFont `json:"font"`
	X     float64   `json:"x"`
	Y     float64   `json:"y"`
	Text  string    `json:"text"`
}

type stextFont struct {
	Name   string  `json:"name"`
	Family string  `json:"family"` // serif, sans-serif, monospace
	Weight string  `json:"weight"` // normal, bold
	Style  string  `json:"style"`  // normal, italic
	Size   float64 `json:"size"`
}

func (b stextBox) rect() Rect {
	return Rect{b.X / jsonScale, b.Y / jsonScale, (b.X + b.W) / jsonScale, (b.Y + b.H) / jsonScale}
}

// fragment is one MuPDF line: a run of text on one baseline in one font.
type fragment struct {
	Box  Rect
	Base float64 // baseline y of the first character
	Font Font
	Text string
}

// rawBlock is one MuPDF text block, in MuPDF's (drawing) order.
type rawBlock struct {
	Box   Rect
	Frags []fragment
}

// decodeStext turns the JSON of one page into text blocks and image
// rectangles, dropping anything outside page.
func decodeStext(data []byte, page Rect) ([]rawBlock, []Rect, error) {
	var sp stextPage
	if err := json.Unmarshal(data, &sp); err != nil {
		return nil, nil, fmt.Errorf("structured text: %w", err)
	}
	var blocks []rawBlock
	var images []Rect
	for _, b := range sp.Blocks {
		box := b.BBox.rect()
		switch b.Type {
		case "image":
			if r, ok := box.Intersect(page); ok {
				images = append(images, r)
			}
		case "text":
			if rb, ok := textBlock(b, page); ok {
				blocks = append(blocks, rb)
			}
		}
	}
	return blocks, images, nil
}

func textBlock(b stextBlock, page Rect) (rawBlock, bool) {
	rb := rawBlock{}
	for _, l := range b.Lines {
		box := l.BBox.rect()
		if _, ok := box.Intersect(page); !ok || l.Text == "" {
			continue
		}
		f := fragment{Box: box, Base: l.Y / jsonScale, Text: l.Text, Font: Font{
			Name:   l.Font.Name,
			Family: l.Font.Family,
			Size:   l.Font.Size / jsonScale,
			Bold:   l.Font.Weight == "bold",
			Italic: l.Font.Style == "italic",
		}}
		rb.Frags = append(rb.Frags, f)
		rb.Box = rb.Box.Union(box)
	}
	return rb, len(rb.Frags) > 0
}
