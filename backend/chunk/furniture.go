package chunk

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"vika/backend/corpus"
)

// Running headers, footers and page numbers ("furniture") repeat on page
// after page: left in the chunks they would drown the content (a beamer
// navigation bar lists every section on every slide). A line is
// furniture, left out of chunk text, when it is
//   - a page number in the top or bottom band of the page;
//   - in a band, with the printed page number at one end on minRepeat
//     pages or more (Okasaki's "2.1 Streams 9": the text changes, the
//     number keeps its distance to the page index);
//   - in a band, the same text (digits aside) on minRepeat pages or more,
//     unless it is set larger or bolder than the body and sits on fewer
//     than half the pages (a slide title repeated over a few slides
//     stays: it names them, and may be all their text);
//   - anywhere, the same text at the same height on half the pages.
//
// A caption's first line ("TABLE II", "Fig. 3.") is never furniture: an
// IEEE paper sets "TABLE I", "TABLE II", "TABLE III" at the top of their
// pages, and with the roman numbers dropped as page numbers they read as
// one running header "table".

// band is the share of the page height, at the top and at the bottom,
// where running headers and footers live.
const band = 0.10

// minRepeat is how many pages must repeat a band line.
const minRepeat = 3

type role int

const (
	roleBody role = iota
	rolePageNumber
	roleFurniture
)

var pageNumber = regexp.MustCompile(`(?i)^(page\s+|p\.\s*)?[-–—(]?\s*(\d{1,4}|[ivxlc]{1,7})\s*[-–—)]?(\s*(/|of|sur|de)\s*\d{1,4})?$`)

// position of a line: -1 top band, 1 bottom band, 0 elsewhere.
func position(p corpus.Page, l corpus.Line) int {
	if p.Height <= 0 {
		return 0
	}
	c := (l.BBox[1] + l.BBox[3]) / 2 / p.Height
	switch {
	case c <= band:
		return -1
	case c >= 1-band:
		return 1
	}
	return 0
}

// furnitureKey normalises a line for comparison across pages: page
// numbers at either end dropped, other digits turned into '#', lower case,
// single spaces.
func furnitureKey(text string) string {
	f := strings.Fields(strings.ToLower(stripPageNumbers(text)))
	for i, w := range f {
		f[i] = strings.Map(func(r rune) rune {
			if unicode.IsDigit(r) {
				return '#'
			}
			return r
		}, w)
	}
	return strings.Join(f, " ")
}

// stripPageNumbers removes whole-number words at both ends of text.
func stripPageNumbers(text string) string {
	f := strings.Fields(text)
	for len(f) > 0 && pageNumber.MatchString(f[0]) && !strings.Contains(f[0], ".") {
		f = f[1:]
	}
	for len(f) > 0 && pageNumber.MatchString(f[len(f)-1]) {
		f = f[:len(f)-1]
	}
	return strings.Join(f, " ")
}

type placed struct {
	pos int    // band (-1, 1), or outside the bands 2 + the height in % of the page
	key string // furnitureKey in the bands, the lower-cased text elsewhere
}

// roles assigns a role to every line of every page (roles[i][j] for
// the line pages[i].page.Lines[j]). Repetitions are counted over the
// pages not skipped (overlays count once); the rule for lines outside the
// bands, which overlays would trigger, applies only when mid is set.
func roles(pages []*view, body style, skip []bool, mid bool) [][]role {
	seen := map[placed]map[int]bool{}     // pages where each placed key occurs
	numbered := map[[2]int]map[int]bool{} // pages where a band line carries the page number + offset
	keys := make([][]placed, len(pages))
	counted := 0
	for i, v := range pages {
		keys[i] = make([]placed, len(v.page.Lines))
		for j, l := range v.page.Lines {
			keys[i][j] = placedKey(v, l)
		}
		if skip != nil && skip[i] {
			continue
		}
		counted++
		for j, l := range v.page.Lines {
			addPage(seen, keys[i][j], i)
			for _, off := range pageOffsets(v, l, keys[i][j].pos) {
				addPage(numbered, off, i)
			}
		}
	}
	out := make([][]role, len(pages))
	for i, v := range pages {
		out[i] = make([]role, len(v.page.Lines))
		for j, l := range v.page.Lines {
			k := keys[i][j]
			c := counts{pages: counted, key: len(seen[k])}
			for _, off := range pageOffsets(v, l, k.pos) {
				c.number = max(c.number, len(numbered[off]))
			}
			out[i][j] = lineRole(v.lineText(l), l, k, c, body)
			if out[i][j] == roleFurniture && k.pos > 1 && !mid {
				out[i][j] = roleBody
			}
		}
	}
	return out
}

// counts are the repetitions of a line: pages counted, pages with the
// same placed key, pages with a page number at the same distance.
type counts struct{ pages, key, number int }

// placedKey places a line: its band and normalised text, or outside the
// bands its height (in % of the page) and lower-cased text.
func placedKey(v *view, l corpus.Line) placed {
	pos := position(v.page, l)
	if pos != 0 {
		return placed{pos: pos, key: furnitureKey(v.lineText(l))}
	}
	k := placed{key: strings.Join(strings.Fields(strings.ToLower(v.lineText(l))), " ")}
	if v.page.Height > 0 {
		k.pos = 2 + int((l.BBox[1]+l.BBox[3])/2/v.page.Height*100)
	}
	return k
}

func addPage[K comparable](m map[K]map[int]bool, k K, page int) {
	if m[k] == nil {
		m[k] = map[int]bool{}
	}
	m[k][page] = true
}

// pageOffsets returns, for a band line starting or ending with a number
// (Okasaki's "2.1 Streams 9"), the band and the difference between that
// number and the page's index: a running header that carries the printed
// page number keeps the same difference from page to page even though
// its text changes.
func pageOffsets(v *view, l corpus.Line, pos int) [][2]int {
	if pos != -1 && pos != 1 {
		return nil
	}
	f := strings.Fields(v.lineText(l))
	if len(f) < 2 {
		return nil
	}
	var out [][2]int
	for _, w := range []string{f[0], f[len(f)-1]} {
		if n, err := strconv.Atoi(w); err == nil && len(w) <= 4 {
			out = append(out, [2]int{pos, n - v.page.Number})
		}
	}
	return out
}

func lineRole(text string, l corpus.Line, k placed, c counts, body style) role {
	text = strings.TrimSpace(text)
	inBand := k.pos == -1 || k.pos == 1
	switch {
	case text == "":
		return roleBody
	case inBand && (k.key == "" || pageNumber.MatchString(text)):
		return rolePageNumber
	case letters(k.key) < 3: // a formula's "n" or "i=1" that happens to sit low
		return roleBody
	case corpus.CaptionKind(text) != "":
		return roleBody
	case inBand && c.number >= minRepeat:
		return roleFurniture
	case inBand && c.key >= minRepeat:
		if c.key*2 < c.pages && body.emphasized(l.Size, l.Bold) {
			return roleBody
		}
		return roleFurniture
	case !inBand && c.pages >= 4 && c.key*2 >= c.pages:
		return roleFurniture
	}
	return roleBody
}

func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}
