package rag

import (
	"context"
	"strings"
	"testing"

	"vika/backend/cite"
	"vika/backend/corpus"
)

// TestRestoreConversationBounds: a course file's turns join the
// conversation newest first within the bounds: a turn over its size is
// left out, the rest in order, at most MaxRestoredBytes in all.
func TestRestoreConversationBounds(t *testing.T) {
	s := &Assistant{turns: []Answer{{ID: "mine"}}}
	huge := Answer{ID: "huge", Answer: strings.Repeat("x", MaxRestoredTurnBytes)}
	n := s.RestoreConversation([]Answer{{ID: "c1"}, huge, {ID: "c2"}})
	got := ids(s.Conversation())
	if n != 2 || got != "mine c1 c2" {
		t.Fatalf("restored %d: %s, want 2: mine c1 c2", n, got)
	}

	big := strings.Repeat("y", MaxRestoredTurnBytes/2)
	var many []Answer
	for range 2 * MaxRestoredBytes / len(big) {
		many = append(many, Answer{ID: "old", Answer: big})
	}
	many = append(many, Answer{ID: "newest", Answer: big})
	s = &Assistant{}
	n = s.RestoreConversation(many)
	conv := s.Conversation()
	if n == 0 || n >= len(many) || conv[len(conv)-1].ID != "newest" {
		t.Fatalf("restored %d of %d, last %q: want the newest within %d bytes", n, len(many), conv[len(conv)-1].ID, MaxRestoredBytes)
	}
	if total := n * len(big); total > MaxRestoredBytes {
		t.Errorf("restored %d bytes of answers, over %d", total, MaxRestoredBytes)
	}
}

func ids(turns []Answer) string {
	var out []string
	for _, a := range turns {
		out = append(out, a.ID)
	}
	return strings.Join(out, " ")
}

// passagesEngine is a session holding the given documents and passages
// (Chunks and Documents only).
type passagesEngine struct {
	Engine
	docs   []corpus.Document
	chunks []corpus.Chunk
}

func (p passagesEngine) Documents(context.Context) ([]corpus.Document, error) { return p.docs, nil }

func (p passagesEngine) Chunks(_ context.Context, docID string) ([]corpus.Chunk, error) {
	var out []corpus.Chunk
	for _, c := range p.chunks {
		if c.DocID == docID {
			out = append(out, c)
		}
	}
	return out, nil
}

// TestRestoredCitationsRecomputed: a course file's turns keep no
// "verified" flag of their own: their sources become the session's
// passages (by chunk id) and their citations are checked again, so that a
// citation of invented text, or of a passage the session does not hold,
// is not verified, while one the real passage supports still is. Fails on
// main (the flags were restored as given, issue 43).
func TestRestoredCitationsRecomputed(t *testing.T) {
	const real = "The mitochondria produce most of the energy of the cell through respiration."
	d := corpus.Document{ID: "d0c", File: "bio.pdf", Label: "bio.pdf"}
	eng := passagesEngine{docs: []corpus.Document{d}, chunks: []corpus.Chunk{{ID: "d0c-p3-c1", DocID: "d0c", Page: 3, Text: real}}}
	s := &Assistant{eng: eng}
	verified := []cite.Citation{{Raw: "[bio.pdf p.3]", File: "bio.pdf", Page: 3, Verified: true}}
	invented := "Quantum flux capacitors power every membrane pump."
	turns := []Answer{
		{ID: "invented", Answer: invented + " [bio.pdf p.3]", Citations: verified,
			Sources: []Source{{Index: 1, Hit: corpus.Hit{ChunkID: "d0c-p3-c1", DocID: "d0c", File: "bio.pdf", Page: 3, Text: invented}}}},
		{ID: "foreign", Answer: invented + " [bio.pdf p.3]", Citations: verified,
			Sources: []Source{{Index: 1, Hit: corpus.Hit{ChunkID: "zzz-p3-c1", DocID: "zzz", File: "bio.pdf", Page: 3, Text: invented}}}},
		{ID: "genuine", Answer: "The mitochondria produce most of the energy of the cell [bio.pdf p.3].",
			Sources: []Source{{Index: 1, Hit: corpus.Hit{ChunkID: "d0c-p3-c1", DocID: "d0c", File: "bio.pdf", Page: 3, Text: "whatever"}}}},
		// A source stating page 7 for a passage of page 3: the stated page
		// is the one whose OCR a course open checked (CitedPages), so the
		// passage's own page was not; not taken (the reviewer's case).
		{ID: "other-page", Answer: "The mitochondria produce most of the energy of the cell [bio.pdf p.3].",
			Sources: []Source{{Index: 1, Hit: corpus.Hit{ChunkID: "d0c-p3-c1", DocID: "d0c", File: "bio.pdf", Page: 7, Text: real}}}},
	}
	if n := s.RestoreConversation(turns); n != 4 {
		t.Fatalf("restored %d turns, want 4", n)
	}
	want := map[string]bool{"invented": false, "foreign": false, "genuine": true, "other-page": false}
	for _, a := range s.Conversation() {
		if len(a.Citations) != 1 {
			t.Fatalf("%s: %d citations, want 1", a.ID, len(a.Citations))
		}
		if got := a.Citations[0].Verified; got != want[a.ID] {
			t.Errorf("%s: verified %v, want %v (%+v)", a.ID, got, want[a.ID], a.Citations[0])
		}
		if a.ID != "foreign" && a.ID != "other-page" && a.Sources[0].Text != real {
			t.Errorf("%s: source text %q, want the session's passage", a.ID, a.Sources[0].Text)
		}
	}
	if turns[0].Citations[0].Verified != true {
		t.Error("the caller's turns were changed")
	}
}
