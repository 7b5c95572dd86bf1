package pdf

import (
	"slices"
	"strings"
	"unicode"
	"vika/backend/corpus"
)

// stextFlags: keep image blocks (for classification), drop text outside
// the page, let MuPDF expand ligatures (no FZ_STEXT_PRESERVE_LIGATURES)
// and leave hyphens alone: FZ_STEXT_DEHYPHENATE would also merge real
// compounds ("fine-tuning"), so joinText does it.
const stextFlags = stextPreserveImages | stextMediaboxClip

// Page is the layout of one page: its text blocks in reading order, its
// images, its cleaned text and its classification.
type Page struct {
	Number int     // 1-based
	Width  float64 // points
	Height float64 // points
	// Text is the cleaned text in reading order: lines separated by "\n",
	// paragraphs (blocks, split at indented lines) by "\n\n", except that
	// a block continuing the previous one's sentence (across a column
	// break) follows after "\n"; rotated lines (margin stamps) come last.
	// Every Line records its rune offsets in it; chunk offsets refer to it.
	Text   string
	Blocks []Block
	Images []Image
	Class  Class
	// Regions are the page's tables, figures and display formulas, set
	// by Document.DetectRegions (nil until then).
	Regions []corpus.Region
	// Fields, Notes and Links are the page's form fields, annotations
	// with contents and links to outside the document (marks.go), read
	// by Document.Page.
	Fields []Field
	Notes  []Note
	Links  []corpus.Link

	rawImages int // images as MuPDF lists them, before merging
	// frags are MuPDF's text fragments in drawing order, for region
	// detection (table cells are fragments aligned in columns).
	frags []fragment
}

// Block is a group of lines MuPDF keeps together (a paragraph, a title,
// a table cell). Blocks are listed in reading order.
type Block struct {
	BBox  Rect
	Lines []Line
}

// Lines returns the lines of all blocks, in reading order.
func (p Page) Lines() []Line {
	var out []Line
	for _, b := range p.Blocks {
		out = append(out, b.Lines...)
	}
	return out
}

// layout builds page n from its structured-text JSON; it returns the
// number of unreadable characters dropped. Classification is left to the
// caller.
func layout(n int, js []byte, bounds Rect) (Page, int, error) {
	raw, images, err := decodeStext(js, bounds)
	if err != nil {
		return Page{}, 0, err
	}
	var blocks, rotated []Block
	for _, rb := range raw {
		b := Block{BBox: rb.Box}
		for _, l := range buildLines(rb) {
			if l.Rotated {
				rotated = append(rotated, Block{BBox: l.BBox, Lines: []Line{l}})
			} else {
				b.Lines = append(b.Lines, l)
			}
		}
		if len(b.Lines) > 0 {
			b.BBox = linesBox(b.Lines)
			blocks = append(blocks, b)
		}
	}
	blocks = append(paragraphs(order(blocks)), rotated...)
	p := Page{Number: n, Width: bounds.Dx(), Height: bounds.Dy()}
	bad := p.setText(blocks)
	p.Images = imageRegions(images, p.Lines())
	p.rawImages = len(images)
	for _, rb := range raw {
		p.frags = append(p.frags, rb.Frags...)
	}
	return p, bad, nil
}

// paragraphs splits blocks before every indented line that follows a
// sentence end: MuPDF often keeps a whole column in one block.
func paragraphs(bs []Block) []Block {
	var out []Block
	for _, b := range bs {
		start := 0
		for i := 1; i < len(b.Lines); i++ {
			prev, l := b.Lines[i-1], b.Lines[i]
			indent := 0.8 * l.Font.Size
			if l.BBox.X0-prev.BBox.X0 >= indent && l.BBox.X0-b.BBox.X0 >= indent && closesSentence(strings.TrimSpace(prev.raw)) {
				out = append(out, Block{BBox: linesBox(b.Lines[start:i]), Lines: b.Lines[start:i]})
				start = i
			}
		}
		out = append(out, Block{BBox: linesBox(b.Lines[start:]), Lines: b.Lines[start:]})
	}
	return out
}

func linesBox(ls []Line) Rect {
	var r Rect
	for _, l := range ls {
		r = r.Union(l.BBox)
	}
	return r
}

// setText cleans the lines of blocks, joins them into p.Text and keeps
// the non-empty lines and blocks. It returns the number of unreadable
// characters dropped.
func (p *Page) setText(blocks []Block) int {
	bad := 0
	texts := make([][]string, len(blocks))
	var all []string
	for bi, b := range blocks {
		for _, l := range b.Lines {
			c, nb := cleanLine(l.raw)
			bad += nb
			texts[bi] = append(texts[bi], c)
			all = append(all, c)
		}
	}
	jumps := make([]bool, len(blocks))
	for i := 1; i < len(blocks); i++ {
		prev, b := blocks[i-1].BBox, blocks[i].BBox
		jumps[i] = b.Y0 < prev.Y0 && b.X0 >= prev.X1-2 // the next column
	}
	text, offs := joinText(texts, jumps, compounds(all))
	runes := []rune(text)
	p.Text = text
	p.Blocks = p.Blocks[:0]
	for bi, b := range blocks {
		kept := b.Lines[:0:0]
		for li, l := range b.Lines {
			if texts[bi][li] == "" {
				continue
			}
			l.Start, l.End = offs[bi][li][0], offs[bi][li][1]
			l.Text, l.raw = string(runes[l.Start:l.End]), ""
			kept = append(kept, l)
		}
		if len(kept) > 0 {
			p.Blocks = append(p.Blocks, Block{BBox: linesBox(kept), Lines: slices.Clip(kept)})
		}
	}
	return bad
}

// countChars counts the non-space characters of s.
func countChars(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}
