package chunk

import (
	"regexp"
	"strconv"
	"strings"

	"vika/backend/corpus"
)

// What part of a document a chunk comes from. A section titled like a
// bibliography holds references; a table of contents, a list of figures
// or acknowledgements are front matter, as is any page that reads like a
// table of contents (most lines end with a page number). Retrieval can
// weigh these down so they do not drown the body.

var (
	referenceTitles = regexp.MustCompile(`(?i)^([0-9A-Z]{1,3}\.?\s+)?(references|bibliography|bibliographie|références|références bibliographiques|works cited|literature cited)$`)
	frontTitles     = regexp.MustCompile(`(?i)^([0-9A-Z]{1,3}\.?\s+)?(contents|table of contents|table des matières|sommaire|list of figures|list of tables|liste des figures|liste des tableaux|table des figures|table des illustrations|acknowledg(e)?ments|remerciements|dedication|dédicace)$`)
)

// kindOf returns the kind of the section a heading opens.
func kindOf(title string) corpus.ChunkKind {
	t := strings.TrimSpace(strings.TrimSuffix(title, ":"))
	switch {
	case referenceTitles.MatchString(t):
		return corpus.ChunkReferences
	case frontTitles.MatchString(t):
		return corpus.ChunkFront
	}
	return corpus.ChunkBody
}

var endsWithPageNumber = regexp.MustCompile(`\p{L}.*[\s.·…](\d{1,4})$`)

// tocLike reports whether the body lines of a page read like a table of
// contents: at least 8, most of them ending with a page number of the
// document, the numbers mostly increasing (a title page ending lines
// with years is not a table of contents).
func tocLike(v *view, rs []role, pages int) bool {
	lines, numbered, rising, last := 0, 0, 0, -1
	for j, l := range v.page.Lines {
		if rs[j] != roleBody {
			continue
		}
		lines++
		m := endsWithPageNumber.FindStringSubmatch(strings.TrimSpace(v.lineText(l)))
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if n > pages+20 {
			continue
		}
		numbered++
		if n >= last {
			rising++
		}
		last = n
	}
	return lines >= 8 && numbered*2 >= lines && rising*10 >= numbered*7
}
