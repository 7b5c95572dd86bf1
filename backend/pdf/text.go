package pdf

import (
	"strings"
	"unicode/utf8"
)

// joinText lays out blocks of cleaned lines as one text: lines of a block
// separated by "\n", blocks by "\n\n". A word hyphenated across two lines
// (or across a column break) is joined (see joinHyphen), and a block that
// continues the previous one's sentence follows it after a single "\n":
// no closing punctuation before it, and either lower case after it or a
// column break (jumps[i]: block i starts higher than block i-1 ends). It
// returns the text and, for every line, its [start, end) rune offsets in
// it (empty lines get {0, 0}). jumps may be nil.
func joinText(blocks [][]string, jumps []bool, known compoundSet) (string, [][][2]int) {
	type ref struct{ b, l int }
	var seq []ref
	texts := make([][]string, len(blocks))
	for bi, ls := range blocks {
		texts[bi] = append([]string(nil), ls...)
		for li, l := range ls {
			if l != "" {
				seq = append(seq, ref{bi, li})
			}
		}
	}
	seps := make([]string, len(seq))
	for i := 1; i < len(seq); i++ {
		p, n := seq[i-1], seq[i]
		prev, next := texts[p.b][p.l], texts[n.b][n.l]
		switch {
		case continuesWord(next) && isHyphenated(prev):
			texts[p.b][p.l] = joinHyphen(prev, next, known)
		case p.b == n.b || !closesSentence(prev) && (continuesWord(next) || n.b < len(jumps) && jumps[n.b]):
			seps[i] = "\n"
		default:
			seps[i] = "\n\n"
		}
	}
	offsets := make([][][2]int, len(blocks))
	for bi := range blocks {
		offsets[bi] = make([][2]int, len(blocks[bi]))
	}
	var b strings.Builder
	pos := 0
	for i, r := range seq {
		b.WriteString(seps[i])
		pos += len(seps[i])
		t := texts[r.b][r.l]
		n := utf8.RuneCountInString(t)
		offsets[r.b][r.l] = [2]int{pos, pos + n}
		b.WriteString(t)
		pos += n
	}
	return b.String(), offsets
}

func isHyphenated(line string) bool {
	_, ok := hyphenated(line)
	return ok
}

// closesSentence reports whether line ends a sentence or a clause that
// may end a paragraph.
func closesSentence(line string) bool {
	line = strings.TrimRight(line, `"')]»”’`)
	r, _ := utf8.DecodeLastRuneInString(line)
	return line == "" || strings.ContainsRune(".!?:;…", r)
}

// CleanText makes any extracted text (for example OCR output) safe to
// store and index, with the same rules as the text layer: valid UTF-8,
// ligatures expanded, control and unreadable characters removed, white
// space collapsed within lines, \r\n and \r turned into \n, words
// hyphenated across lines joined, and paragraphs (text between blank
// lines) separated by exactly one blank line.
func CleanText(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	var blocks [][]string
	var all []string
	for _, para := range splitParagraphs(s) {
		var ls []string
		for _, l := range para {
			c, _ := cleanLine(l)
			ls = append(ls, c)
			all = append(all, c)
		}
		blocks = append(blocks, ls)
	}
	text, _ := joinText(blocks, nil, compounds(all))
	return text
}

// splitParagraphs splits s into runs of lines separated by blank lines.
func splitParagraphs(s string) [][]string {
	var out [][]string
	var cur []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) == "" {
			if len(cur) > 0 {
				out = append(out, cur)
				cur = nil
			}
			continue
		}
		cur = append(cur, l)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}
