package corpus

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Scope limits a question to some documents and, optionally, a range of
// their pages: the search only ever sees the chunks it keeps (the indexes
// filter before ranking). The zero value keeps everything.
type Scope struct {
	// Docs are the ids of the documents kept; empty keeps every one.
	Docs []string `json:"docs,omitempty"`
	// From and To bound the pages kept, inclusive (1-based); 0 leaves
	// that side open. A passage without a page (a BEIR document) is
	// outside any page range.
	From int `json:"from,omitempty"`
	To   int `json:"to,omitempty"`
	// Section is the title of an outline section of one of the documents
	// kept (or of any, when Docs is empty). Resolve turns it into that
	// document and the section's pages (within From and To); the indexes
	// only read Docs, From and To.
	Section string `json:"section,omitempty"`
	// Mine keeps only the student's own highlights and notes (passages of
	// kind ChunkMine) of the documents and pages kept: "my notes".
	Mine bool `json:"mine,omitempty"`
}

// All reports whether s keeps every chunk.
func (s Scope) All() bool {
	return len(s.Docs) == 0 && s.From == 0 && s.To == 0 && s.Section == "" && !s.Mine
}

// KeepsKind reports whether s keeps a chunk of kind k (Mine keeps only
// the student's own).
func (s Scope) KeepsKind(k ChunkKind) bool { return !s.Mine || k == ChunkMine }

// Paged reports whether s bounds the pages.
func (s Scope) Paged() bool { return s.From > 0 || s.To > 0 }

// Keeps reports whether the chunk of document doc on page page is in s.
func (s Scope) Keeps(doc string, page int) bool {
	if len(s.Docs) > 0 && !slices.Contains(s.Docs, doc) {
		return false
	}
	if !s.Paged() {
		return true
	}
	return page >= max(s.From, 1) && (s.To == 0 || page <= s.To)
}

// ParsePages reads a page range: "10-20", "10-", "-20" or "7".
func ParsePages(s string) (from, to int, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, 0, nil
	}
	a, b, ranged := strings.Cut(s, "-")
	num := func(v string) (int, error) {
		v = strings.TrimSpace(v)
		if v == "" {
			return 0, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return 0, fmt.Errorf("page range %q: %q is not a page number", s, v)
		}
		return n, nil
	}
	if from, err = num(a); err != nil {
		return 0, 0, err
	}
	if !ranged {
		if from == 0 {
			return 0, 0, fmt.Errorf("page range %q: no page", s)
		}
		return from, from, nil
	}
	if to, err = num(b); err != nil {
		return 0, 0, err
	}
	if from == 0 && to == 0 {
		return 0, 0, fmt.Errorf("page range %q: no page", s)
	}
	if to > 0 && from > to {
		return 0, 0, fmt.Errorf("page range %q: %d comes after %d", s, from, to)
	}
	return from, to, nil
}
