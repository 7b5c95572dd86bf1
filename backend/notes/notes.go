// Package notes owns the student's own highlights and notes: a passage
// highlighted on a page of a document (its text layer, or the OCR lines
// of a scan) in one colour of a fixed palette, with a note or none, and
// notes on a whole page. It holds their bounds and checks (the window's
// input and a course file's are untrusted alike: sizes, counts, pages in
// the document, boxes inside the page, plain UTF-8 text that is never
// markup), the session's collection of them (Book), their encoding in a
// course file (Encode, Decode) and the passage each one is in the
// session's indexes (Passage: corpus.ChunkMine).
//
// Call sites read: notes.NewBook(), book.Add(n, page, now), notes.Passage(n, lang).
package notes

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"vika/backend/corpus"
	"vika/backend/message"
)

// Kind is what a note is attached to.
type Kind string

const (
	// Highlight is a passage highlighted on a page (Quote, Boxes), with
	// the student's note about it or none.
	Highlight Kind = "highlight"
	// PageNote is a note on a whole page (Text; no Quote, no Boxes).
	PageNote Kind = "page"
)

// Color is a highlight's colour, one of Palette's.
type Color string

// Palette lists the colours a highlight may take, in the order the window
// offers them, with their RGB (0..1) for a PDF annotation.
var Palette = []Swatch{
	{"yellow", [3]float64{1, 0.89, 0.25}},
	{"green", [3]float64{0.55, 0.87, 0.45}},
	{"blue", [3]float64{0.45, 0.73, 1}},
	{"pink", [3]float64{1, 0.55, 0.75}},
	{"orange", [3]float64{1, 0.65, 0.3}},
}

// Swatch is one colour of the palette.
type Swatch struct {
	Name Color      `json:"name"`
	RGB  [3]float64 `json:"rgb"`
}

// RGB returns the colour's RGB, and whether it is one of the palette's.
func (c Color) RGB() ([3]float64, bool) {
	for _, s := range Palette {
		if s.Name == c {
			return s.RGB, true
		}
	}
	return [3]float64{}, false
}

// Box is a rectangle on a page: x0, y0, x1, y1 in points from the top
// left (the space of corpus.Line.BBox).
type Box = [4]float64

// Note is one highlight or page note of the student's.
type Note struct {
	ID    string `json:"id"` // 32 hex digits
	DocID string `json:"doc_id"`
	Page  int    `json:"page"` // 1-based
	Kind  Kind   `json:"kind"`
	Color Color  `json:"color"`
	// Quote is the highlighted text as the page's text layer (or OCR
	// lines) gives it; "" for a page note.
	Quote string `json:"quote,omitempty"`
	// Boxes are where the highlight is drawn, one per line (or part of a
	// line) it covers; none for a page note.
	Boxes []Box `json:"boxes,omitempty"`
	// Text is the student's note: plain text, never markup.
	Text    string    `json:"text"`
	Created time.Time `json:"created"`
	Edited  time.Time `json:"edited"`
}

// Bounds of the notes.
const (
	// MaxQuoteRunes bounds a highlight's text: a selection's
	// (corpus.MaxSelectionRunes).
	MaxQuoteRunes = corpus.MaxSelectionRunes
	// MaxTextRunes bounds a note's text.
	MaxTextRunes = 4000
	// MaxBoxes bounds a highlight's boxes (a long selection spans many
	// lines, each in a few pieces).
	MaxBoxes = 200
	// MaxNotes is the most notes a session holds.
	MaxNotes = 5000
	// margin is how far (points) a box may stray over its page's edge.
	margin  = 2
	maxPage = 100_000
)

// Errors of the checks, each with its message code.
var (
	ErrInvalid = errors.New("invalid note")
	ErrUnknown = errors.New("no such note")
	ErrFull    = errors.New("too many notes")
)

func init() {
	message.Register(ErrUnknown, message.NoteUnknown)
	message.Register(ErrFull, message.NotesFull)
}

var (
	idPattern  = regexp.MustCompile(`^[0-9a-f]{32}$`)
	docPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// NewID returns a new note id.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// PageSize is the size of a page in points, to check a note's boxes; a
// zero size checks only that they are finite and ordered.
type PageSize struct{ Width, Height float64 }

// invalid wraps ErrInvalid with what is wrong, coded message.NoteInvalid
// with the field.
func invalid(field, format string, args ...any) error {
	err := fmt.Errorf("%w: %s: %s", ErrInvalid, field, fmt.Sprintf(format, args...))
	return message.Wrap(err, message.NoteInvalid, "field", field)
}

// Clean returns n with its texts made plain (line ends "\n", control
// characters other than newline and tab dropped, spaces trimmed) and
// checks it against pages (the document's page count) and size (its
// page's): an error wraps ErrInvalid, coded message.NoteInvalid.
func Clean(n Note, pages int, size PageSize) (Note, error) {
	var err error
	if n.Quote, err = plain("quote", n.Quote, MaxQuoteRunes); err != nil {
		return n, err
	}
	if n.Text, err = plain("text", n.Text, MaxTextRunes); err != nil {
		return n, err
	}
	switch {
	case !idPattern.MatchString(n.ID):
		return n, invalid("id", "not 32 hex digits")
	case !docPattern.MatchString(n.DocID):
		return n, invalid("doc_id", "not a document id")
	case n.Page < 1 || n.Page > maxPage || (pages > 0 && n.Page > pages):
		return n, invalid("page", "page %d of %d", n.Page, pages)
	}
	if _, ok := n.Color.RGB(); !ok {
		return n, invalid("color", "%q is not in the palette", truncate(string(n.Color), 32))
	}
	switch n.Kind {
	case Highlight:
		if n.Quote == "" {
			return n, invalid("quote", "a highlight without text")
		}
		if len(n.Boxes) == 0 || len(n.Boxes) > MaxBoxes {
			return n, invalid("boxes", "%d boxes, 1 to %d", len(n.Boxes), MaxBoxes)
		}
		for _, b := range n.Boxes {
			if !inside(b, size) {
				return n, invalid("boxes", "a box outside its page")
			}
		}
	case PageNote:
		if n.Text == "" {
			return n, invalid("text", "a page note without text")
		}
		if n.Quote != "" || len(n.Boxes) > 0 {
			return n, invalid("kind", "a page note with a highlight")
		}
	default:
		return n, invalid("kind", "%q", truncate(string(n.Kind), 32))
	}
	return n, nil
}

// plain checks s is UTF-8 of at most max runes and returns it plain.
func plain(field, s string, max int) (string, error) {
	if !utf8.ValidString(s) {
		return "", invalid(field, "not UTF-8")
	}
	if len(s) > 4*max+64 || utf8.RuneCountInString(s) > max {
		return "", invalid(field, "longer than %d characters", max)
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\r':
			return '\n'
		case r == '\n' || r == '\t':
			return r
		case unicode.IsControl(r) || r == utf8.RuneError || unicode.Is(unicode.Cf, r) && r != '\u200d':
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s), nil
}

// inside reports whether b is a finite, non-empty box within size (and
// its margin).
func inside(b Box, size PageSize) bool {
	for _, v := range b {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	if b[0] >= b[2] || b[1] >= b[3] {
		return false
	}
	if size.Width <= 0 || size.Height <= 0 {
		return b[0] >= -margin && b[1] >= -margin && b[2] <= 20000 && b[3] <= 20000
	}
	return b[0] >= -margin && b[1] >= -margin && b[2] <= size.Width+margin && b[3] <= size.Height+margin
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Span is the union of a highlight's boxes; nil for a page note.
func (n Note) Span() *Box {
	if len(n.Boxes) == 0 {
		return nil
	}
	u := n.Boxes[0]
	for _, b := range n.Boxes[1:] {
		u = Box{min(u[0], b[0]), min(u[1], b[1]), max(u[2], b[2]), max(u[3], b[3])}
	}
	return &u
}

// ChunkPrefix begins the id of a note's passage; the rest is the note's id.
const ChunkPrefix = "mine-"

// Passage is the note as a passage of the session's indexes: of kind
// corpus.ChunkMine, on its page, its text the highlighted quote then the
// note (the words a question finds it by, and a citation of it is checked
// against), boxed by its highlight. lang is its page's language.
func Passage(n Note, lang string) corpus.Chunk {
	text := n.Text
	if n.Quote != "" {
		text = strings.TrimSpace("“" + n.Quote + "”\n" + n.Text)
	}
	return corpus.Chunk{ID: ChunkPrefix + n.ID, DocID: n.DocID, Page: n.Page, Text: text,
		PageType: corpus.PageText, Lang: lang, Kind: corpus.ChunkMine, BBox: n.Span()}
}
