package notes

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Book is the session's notes. It is safe for concurrent use.
type Book struct {
	mu    sync.Mutex
	notes map[string]Note // guarded by mu
}

// NewBook returns an empty book.
func NewBook() *Book { return &Book{notes: map[string]Note{}} }

// Add cleans n (Clean, against the document's pages and its page's
// size), gives it an id when it has none and its times, and keeps it;
// ErrFull past MaxNotes.
func (b *Book) Add(n Note, pages int, size PageSize, now time.Time) (Note, error) {
	if n.ID == "" {
		n.ID = NewID()
	}
	n.Created, n.Edited = now.UTC(), now.UTC()
	n, err := Clean(n, pages, size)
	if err != nil {
		return Note{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.notes[n.ID]; !ok && len(b.notes) >= MaxNotes {
		return Note{}, fmt.Errorf("%w: %d", ErrFull, MaxNotes)
	}
	b.notes[n.ID] = n
	return n, nil
}

// Edit changes note id's text and colour (a page note keeps a text);
// ErrUnknown when it is not in the book.
func (b *Book) Edit(id, text string, color Color, now time.Time) (Note, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, ok := b.notes[id]
	if !ok {
		return Note{}, fmt.Errorf("%w: %s", ErrUnknown, truncate(id, 64))
	}
	n.Text, n.Color, n.Edited = text, color, now.UTC()
	n, err := Clean(n, 0, PageSize{})
	if err != nil {
		return Note{}, err
	}
	b.notes[id] = n
	return n, nil
}

// Delete removes note id and returns it; ErrUnknown when it is not there.
func (b *Book) Delete(id string) (Note, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, ok := b.notes[id]
	if !ok {
		return Note{}, fmt.Errorf("%w: %s", ErrUnknown, truncate(id, 64))
	}
	delete(b.notes, id)
	return n, nil
}

// Get returns note id.
func (b *Book) Get(id string) (Note, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, ok := b.notes[id]
	return n, ok
}

// List returns the notes of document docID ("" for every document) in
// reading order: by document, page, top of the highlight (a page note
// first), then creation.
func (b *Book) List(docID string) []Note {
	b.mu.Lock()
	out := make([]Note, 0, len(b.notes))
	for _, n := range b.notes {
		if docID == "" || n.DocID == docID {
			out = append(out, n)
		}
	}
	b.mu.Unlock()
	slices.SortFunc(out, Compare)
	return out
}

// Compare orders notes for reading: by document, page, top, left, then
// creation and id.
func Compare(a, x Note) int {
	top := func(n Note) (float64, float64) {
		if s := n.Span(); s != nil {
			return s[1], s[0]
		}
		return -1, -1
	}
	at, al := top(a)
	xt, xl := top(x)
	return cmp.Or(cmp.Compare(a.DocID, x.DocID), cmp.Compare(a.Page, x.Page), cmp.Compare(at, xt), cmp.Compare(al, xl),
		a.Created.Compare(x.Created), cmp.Compare(a.ID, x.ID))
}

// Forget removes the notes of document docID and returns how many there
// were.
func (b *Book) Forget(docID string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for id, x := range b.notes {
		if x.DocID == docID {
			delete(b.notes, id)
			n++
		}
	}
	return n
}

// Len is the number of notes.
func (b *Book) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.notes)
}

// Restore keeps notes already checked (Decode's), those whose id the book
// does not hold, up to MaxNotes, and returns how many it kept.
func (b *Book) Restore(notes []Note) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, x := range notes {
		if _, ok := b.notes[x.ID]; ok || len(b.notes) >= MaxNotes {
			continue
		}
		b.notes[x.ID] = x
		n++
	}
	return n
}
