package ingest

import (
	"strings"

	"vika/backend/corpus"
	"vika/backend/pdf"
)

// searchAhead bounds how far past the previous word (in runes) the next
// OCR word is looked for in the cleaned text: cleaning only drops or
// joins characters, so a word is found right after the previous one, and
// a word cleaning changed beyond recognition is skipped rather than
// matched somewhere far away.
const searchAhead = 64

// ocrLines places the OCR words of a page (in page points, in reading
// order, numbered by line) in text, the cleaned OCR text made from them,
// and returns one corpus.Line per OCR line: the rune offsets of its words
// in text, the union of their boxes clipped to the page (w x h points)
// and the OCR paragraph as its block. Lines carry no font size: OCR does
// not measure one. A word that cannot be found near where the previous
// one ended (cleaning rewrote it) is left out of its line; a line with no
// word found is left out.
func ocrLines(text string, words []pdf.Word, w, h float64) []corpus.Line {
	runes := []rune(text)
	var out []corpus.Line
	at := 0
	for i := 0; i < len(words); {
		j := i + 1
		for j < len(words) && words[j].Line == words[i].Line {
			j++
		}
		l := corpus.Line{Start: -1, Block: words[i].Para}
		var box pdf.Rect
		for _, wd := range words[i:j] {
			s, e, ok := findWord(runes, at, wd.Text)
			if !ok {
				continue
			}
			if l.Start < 0 {
				l.Start, box = s, wd.Box
			} else {
				box = box.Union(wd.Box)
			}
			l.End, at = e, e
		}
		i = j
		if l.Start < 0 {
			continue
		}
		l.BBox = [4]float64{clamp(box.X0, w), clamp(box.Y0, h), clamp(box.X1, w), clamp(box.Y1, h)}
		out = append(out, l)
	}
	return out
}

// findWord finds word, cleaned as the text was, in runes at or shortly
// after rune offset from, and returns its rune span. A word hyphenated at
// the end of its line is found without its hyphen (cleaning joined it to
// the next line's part).
func findWord(runes []rune, from int, word string) (start, end int, ok bool) {
	c := strings.TrimSpace(pdf.CleanText(word))
	if c == "" {
		return 0, 0, false
	}
	for _, cand := range []string{c, strings.TrimRight(c, "-\u2010\u00ad")} {
		n := []rune(cand)
		if len(n) == 0 {
			continue
		}
		if s := indexRunes(runes, n, from, from+searchAhead); s >= 0 {
			return s, s + len(n), true
		}
	}
	return 0, 0, false
}

// indexRunes returns the first index in [from, limit] where needle starts
// in hay, or -1.
func indexRunes(hay, needle []rune, from, limit int) int {
	for s := from; s <= limit && s+len(needle) <= len(hay); s++ {
		match := true
		for k, r := range needle {
			if hay[s+k] != r {
				match = false
				break
			}
		}
		if match {
			return s
		}
	}
	return -1
}

func clamp(v, hi float64) float64 {
	if hi <= 0 {
		return max(v, 0)
	}
	return min(max(v, 0), hi)
}
