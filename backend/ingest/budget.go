package ingest

import (
	"unicode/utf8"

	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/pdf"
)

// Budgets of what one document may bring into the app process, checked as
// each page's reply arrives from the worker: the worker bounds the time and
// memory of a page, not what pages add up to (a form of a million
// characters drawn on every page is cheap to read and ruinous to chunk and
// embed). A real page holds a few thousand characters; a 3,000-page book
// some ten million.
const (
	// MaxPageChars is the most characters kept of one page; the rest is
	// dropped with a notice on the page.
	MaxPageChars = 200_000
	// MaxDocChars is the most characters read from one document; the
	// pages after it are not read (they are marked), and the document is
	// added with a warning.
	MaxDocChars = 16_000_000
	// MaxPageRegions is the most tables, figures, formulas, form fields
	// and notes kept of one page.
	MaxPageRegions = 200
)

// TextLimits are the budgets of Options.Text.
type TextLimits struct {
	PageChars, DocChars int
}

// textBudget counts a document's characters as its pages arrive.
type textBudget struct {
	lim  TextLimits
	left int // characters the document may still bring
	over int // the first page not read, 0 while within budget
	cut  int // the first page whose text was cut, 0 for none
}

func newTextBudget(lim TextLimits) *textBudget {
	if lim.PageChars <= 0 {
		lim.PageChars = MaxPageChars
	}
	if lim.DocChars <= 0 {
		lim.DocChars = MaxDocChars
	}
	return &textBudget{lim: lim, left: lim.DocChars}
}

// admit bounds page, which just arrived, and reports whether the document
// is still within its budget (false: this page and the next are not read).
func (b *textBudget) admit(page *corpus.Page) bool {
	if b.over > 0 {
		b.skip(page)
		return false
	}
	if max := b.lim.PageChars; len(page.Text) > max && utf8.RuneCountInString(page.Text) > max {
		page.Text = cutRunes(page.Text, max)
		page.Lines = keepLines(page.Lines, max)
		if b.cut == 0 {
			b.cut = page.Number
		}
	}
	if len(page.Regions) > MaxPageRegions {
		page.Regions = page.Regions[:MaxPageRegions]
	}
	page.Links = boundLinks(page.Links, page.Number)
	n := utf8.RuneCountInString(page.Text)
	if n > b.left {
		b.over = page.Number
		b.skip(page)
		return false
	}
	b.left -= n
	return true
}

func (b *textBudget) skip(page *corpus.Page) {
	*page = corpus.Page{DocID: page.DocID, Number: page.Number, Width: page.Width, Height: page.Height, Type: page.Type}
	m := message.New(message.PageOverBudget, "page", page.Number, "limit", b.lim.DocChars)
	page.Problem = &m
}

// warning is the document's warning when pages were not read or a page's
// text was cut, else nil.
func (b *textBudget) warning() *message.Message {
	var m message.Message
	switch {
	case b.over > 0:
		m = message.New(message.TextBudget, "pages", b.over-1, "limit", b.lim.DocChars)
	case b.cut > 0:
		m = message.New(message.PageTextCut, "page", b.cut, "limit", b.lim.PageChars)
	default:
		return nil
	}
	return &m
}

// boundLinks keeps the first pdf.MaxPageMarks links of a page whose
// targets are at most pdf.MaxLinkURI characters, each placed on page:
// the worker bounds them, and the app does not rely on that.
func boundLinks(links []corpus.Link, page int) []corpus.Link {
	links = links[:min(len(links), pdf.MaxPageMarks)]
	kept := links[:0]
	for _, l := range links {
		if l.URI != "" && utf8.RuneCountInString(l.URI) <= pdf.MaxLinkURI {
			l.Page = page
			kept = append(kept, l)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return kept
}

// cutRunes is s's first n characters.
func cutRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// keepLines keeps the lines (rune offsets) within the first end
// characters of the page text.
func keepLines(lines []corpus.Line, end int) []corpus.Line {
	for i := range lines {
		if lines[i].Start >= end {
			return lines[:i]
		}
		lines[i].End = min(lines[i].End, end)
	}
	return lines
}

// WithinBudget reports whether a processed document that did not come from
// the worker (a course file's, or the document cache's) keeps the budgets
// an ingest would have held it to: at most maxPages pages (0: no limit),
// MaxPageChars a page, MaxDocChars in all, MaxPageRegions a page, and its
// passages at most chunkShare times the document's text (passages overlap
// and add the tables' and figures' text; real ones hold well under twice
// the page text).
func WithinBudget(pages []corpus.Page, chunks []corpus.Chunk, maxPages int) bool {
	if maxPages > 0 && len(pages) > maxPages {
		return false
	}
	total := 0
	for _, p := range pages {
		n := utf8.RuneCountInString(p.Text)
		if n > MaxPageChars || len(p.Regions) > MaxPageRegions || len(p.Links) > pdf.MaxPageMarks {
			return false
		}
		total += n
	}
	if total > MaxDocChars {
		return false
	}
	passages := 0
	for _, c := range chunks {
		passages += len(c.Text)
		if passages > chunkShare*MaxDocChars {
			return false
		}
	}
	return true
}

// chunkShare bounds a document's passage text against its budget.
const chunkShare = 4
