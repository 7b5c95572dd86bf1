package chunk

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"vika/backend/corpus"
)

// Passages of a page's regions (tables, figures, display formulas). Each
// region gives one passage of its kind, cited by its page and highlighted
// by its box; its CharStart and CharEnd span the page lines the region
// covers (empty when it covers none, as on OCR text). A table longer than
// the target is split between rows, each piece repeating the caption and
// the header row.

// regionChunks returns the passages of page's regions; n numbers chunks
// on the page and is advanced.
func regionChunks(prefix, docID string, page corpus.Page, sec section, n *int, opts Options) []corpus.Chunk {
	var out []corpus.Chunk
	for _, r := range page.Regions {
		start, end := regionSpan(page, r.BBox)
		box := r.BBox
		for _, text := range regionTexts(r, opts.Target) {
			*n++
			out = append(out, corpus.Chunk{
				ID:           fmt.Sprintf("%s-p%d-c%d", prefix, page.Number, *n),
				DocID:        docID,
				Page:         page.Number,
				CharStart:    start,
				CharEnd:      end,
				Text:         text,
				SectionTitle: sec.title,
				PageType:     page.Type,
				Kind:         r.Kind,
				BBox:         &box,
			})
		}
	}
	return out
}

// regionSpan is the rune span of the page lines centred in box.
func regionSpan(page corpus.Page, box [4]float64) (int, int) {
	start, end := -1, 0
	for _, l := range page.Lines {
		cx, cy := (l.BBox[0]+l.BBox[2])/2, (l.BBox[1]+l.BBox[3])/2
		if cx < box[0] || cx > box[2] || cy < box[1] || cy > box[3] {
			continue
		}
		if start < 0 || l.Start < start {
			start = l.Start
		}
		end = max(end, l.End)
	}
	if start < 0 {
		return 0, 0
	}
	return start, end
}

// regionTexts is the text of r's passages: the caption, then the table's
// Markdown (in pieces of about target runes, each with the header row),
// the figure's inner text and description, or the formula.
func regionTexts(r corpus.Region, target int) []string {
	head := strings.TrimSpace(r.Caption)
	join := func(parts ...string) string {
		var kept []string
		for _, p := range parts {
			if p = strings.TrimSpace(p); p != "" {
				kept = append(kept, p)
			}
		}
		return strings.Join(kept, "\n\n")
	}
	if r.Kind != corpus.ChunkTable {
		return []string{join(head, r.Text, r.Description)}
	}
	lines := strings.Split(strings.TrimSpace(r.Text), "\n")
	if len(lines) < 3 || utf8.RuneCountInString(r.Text) <= 2*target {
		return []string{join(head, r.Text, r.Description)}
	}
	header := lines[0] + "\n" + lines[1]
	budget := max(target-utf8.RuneCountInString(head)-utf8.RuneCountInString(header), target/3)
	var out []string
	var cur []string
	size := 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, join(head, header+"\n"+strings.Join(cur, "\n")))
			cur, size = nil, 0
		}
	}
	for _, l := range lines[2:] {
		if size > 0 && size+utf8.RuneCountInString(l) > budget {
			flush()
		}
		cur = append(cur, l)
		size += utf8.RuneCountInString(l) + 1
	}
	flush()
	if r.Description != "" {
		out = append(out, join(head, r.Description))
	}
	return out
}
