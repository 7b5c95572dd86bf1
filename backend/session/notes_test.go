package session

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/course/coursetest"
	"vika/backend/engine"
	"vika/backend/llm/llmtest"
	"vika/backend/notes"
	"vika/backend/rag"
	"vika/backend/study"
)

const (
	satPage1 = "Boolean satisfiability (SAT) asks whether a formula has a satisfying assignment."
	satPage2 = "Cook proved SAT NP-complete in 1971. The DPLL algorithm backtracks on a conflict."
	noteText = "Remember for the exam: Tseitin encoding turns any circuit into an equisatisfiable CNF in linear size."
)

// highlightOn returns a highlight of the first line of page n of doc, as
// the viewer sends it: its text and box as the session's page gives them.
func highlightOn(t *testing.T, s *Session, docID string, n int, text string) notes.Note {
	t.Helper()
	pages, err := s.Pages(t.Context(), docID)
	if err != nil || len(pages) < n || len(pages[n-1].Lines) == 0 {
		t.Fatalf("page %d: %v (%d pages)", n, err, len(pages))
	}
	p := pages[n-1]
	l := p.Lines[0]
	quote := string([]rune(p.Text)[l.Start:l.End])
	return notes.Note{DocID: docID, Page: n, Kind: notes.Highlight, Color: "green", Quote: quote, Boxes: []notes.Box{l.BBox}, Text: text}
}

// TestNoteThroughACourseAndBack: a highlight and a page note made in one
// session are saved in a course file and come back in another, the same
// in every field, indexed there as the student's own passages ("my
// notes" finds them and only them); a note of a hostile course (a box
// off its page, a page past the end, markup and control characters, a
// note of a document not in the course) is left out or made plain, and
// the good ones still come.
func TestNoteThroughACourseAndBack(t *testing.T) {
	first := open(t, "", &heard{})
	r, err := first.Ingest(t.Context(), writePDF(t, "sat.pdf", satPage1, satPage2), nil)
	if err != nil {
		t.Fatal(err)
	}
	doc := r.Doc.ID
	hl, err := first.AddNote(t.Context(), highlightOn(t, first, doc, 2, noteText))
	if err != nil {
		t.Fatal(err)
	}
	pn, err := first.AddNote(t.Context(), notes.Note{DocID: doc, Page: 1, Kind: notes.PageNote, Color: "blue", Text: "Revise <b>this</b> page\x07 before Friday"})
	if err != nil {
		t.Fatal(err)
	}
	if pn.Text != "Revise <b>this</b> page before Friday" {
		t.Errorf("page note text %q: markup kept as typed, control characters gone", pn.Text)
	}
	if _, err := first.AddNote(t.Context(), notes.Note{DocID: doc, Page: 3, Kind: notes.PageNote, Color: "blue", Text: "past the end"}); !errors.Is(err, notes.ErrInvalid) {
		t.Errorf("a note on page 3 of 2: %v", err)
	}
	if !first.Unsaved() {
		t.Error("notes made: the session is not unsaved")
	}
	path := filepath.Join(t.TempDir(), "sat.vika")
	if _, err := first.SaveCourse(t.Context(), path, false); err != nil {
		t.Fatal(err)
	}

	second := open(t, "", &heard{})
	if _, err := second.OpenCourse(t.Context(), path); err != nil {
		t.Fatal(err)
	}
	got := second.Notes("")
	want := []notes.Note{pn, hl}
	if len(got) != 2 || got[0].ID != want[0].ID || got[1].ID != want[1].ID {
		t.Fatalf("notes after the course: %+v", got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Quote != w.Quote || g.Text != w.Text || g.Color != w.Color || g.Page != w.Page || !slices.Equal(g.Boxes, w.Boxes) || !g.Created.Equal(w.Created) {
			t.Errorf("note %d came back as %+v, want %+v", i, g, w)
		}
	}
	res, err := second.Search(t.Context(), "Tseitin encoding circuit", engine.SearchOptions{Mode: "bm25", K: 5, Scope: corpus.Scope{Mine: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.Hits[0].Kind != corpus.ChunkMine || res.Hits[0].Page != 2 || !strings.Contains(res.Hits[0].Text, "Tseitin") {
		t.Errorf("my notes searched for Tseitin: %+v", res.Hits)
	}
	res, err = second.Search(t.Context(), "Cook proved SAT", engine.SearchOptions{Mode: "bm25", K: 5, Scope: corpus.Scope{Mine: true}})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if h.Kind != corpus.ChunkMine {
			t.Errorf("my notes found a passage of the document: %+v", h)
		}
	}
	// The course's document data holds no passage of the notes (they are
	// the notes table's): the document has its own passages, plus the two
	// notes indexed once.
	chunks, err := second.Chunks(t.Context(), doc)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(chunks) - len(mineIn(chunks)); len(mineIn(chunks)) != 2 || n < 1 {
		t.Errorf("%d passages, %d of them notes: want the document's and the 2 notes once", len(chunks), len(mineIn(chunks)))
	}
	// Edited and deleted notes leave the index.
	if _, err := second.EditNote(t.Context(), hl.ID, "now about resolution proofs", "pink"); err != nil {
		t.Fatal(err)
	}
	if res, _ := second.Search(t.Context(), "Tseitin", engine.SearchOptions{Mode: "bm25", K: 5, Scope: corpus.Scope{Mine: true}}); len(res.Hits) != 0 {
		t.Errorf("after the edit its old text still finds it: %+v", res.Hits)
	}
	if res, _ := second.Search(t.Context(), "resolution proofs", engine.SearchOptions{Mode: "bm25", K: 5, Scope: corpus.Scope{Mine: true}}); len(res.Hits) != 1 {
		t.Errorf("after the edit its new text does not find it: %+v", res.Hits)
	}
	if err := second.DeleteNote(t.Context(), hl.ID); err != nil {
		t.Fatal(err)
	}
	if res, _ := second.Search(t.Context(), "resolution proofs", engine.SearchOptions{Mode: "bm25", K: 5, Scope: corpus.Scope{Mine: true}}); len(res.Hits) != 0 {
		t.Errorf("a deleted note is still found: %+v", res.Hits)
	}

	// A hostile course: its notes table rewritten with notes no Vika wrote.
	hostile := filepath.Join(t.TempDir(), "hostile.vika")
	if _, err := first.SaveCourse(t.Context(), hostile, false); err != nil {
		t.Fatal(err)
	}
	bad := func(edit func(*notes.Note)) notes.Note {
		n := hl
		n.ID = notes.NewID()
		edit(&n)
		return n
	}
	data, err := notes.Encode([]notes.Note{
		hl,
		bad(func(n *notes.Note) { n.Boxes = []notes.Box{{0, 0, 9000, 9000}} }),
		bad(func(n *notes.Note) { n.Page = 40 }),
		bad(func(n *notes.Note) { n.DocID = strings.Repeat("0", 64) }),
		bad(func(n *notes.Note) { n.Text = strings.Repeat("x", notes.MaxTextRunes+1) }),
		bad(func(n *notes.Note) { n.Color = `"><img src=x onerror=alert(1)>` }),
		bad(func(n *notes.Note) { n.Text = "<script>alert(1)</script>\u202e" }),
	})
	if err != nil {
		t.Fatal(err)
	}
	coursetest.Edit(t, hostile, `UPDATE notes SET data = ?`, data)
	third := open(t, "", &heard{})
	if _, err := third.OpenCourse(t.Context(), hostile); err != nil {
		t.Fatal(err)
	}
	kept := third.Notes(doc)
	if len(kept) != 2 {
		t.Fatalf("hostile course: %d notes kept, want the good one and the one made plain: %+v", len(kept), kept)
	}
	for _, n := range kept {
		if strings.ContainsRune(n.Text, '\u202e') {
			t.Errorf("a note kept its bidi override: %q", n.Text)
		}
	}
}

func mineIn(chunks []corpus.Chunk) []corpus.Chunk {
	var out []corpus.Chunk
	for _, c := range chunks {
		if c.Kind == corpus.ChunkMine {
			out = append(out, c)
		}
	}
	return out
}

// TestQuestionAnsweredFromANote: a question limited to "my notes" is
// answered (by a Gemini fake speaking its wire format) from the
// student's highlight: the prompt holds the note as a student note, the
// citation is verified against the note's text and says it cites a note
// (the chip "your note, p. 2"); cards made from the highlights read the
// notes only and cite their page.
func TestQuestionAnsweredFromANote(t *testing.T) {
	gemini := llmtest.NewServer(t, "text/event-stream", func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.Body, "flashcards") {
			return llmtest.Reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash",
				"Q: What does the Tseitin encoding turn a circuit into?\nA: An equisatisfiable CNF in linear size [sat.pdf p.2]\n")}
		}
		return llmtest.Reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash",
			"The Tseitin encoding turns any circuit into an equisatisfiable CNF ", "in linear size [sat.pdf p.2].")}
	})
	s := openWith(t, "", &heard{}, map[string]string{"GEMINI_API_KEY": "AIzaSyFAKE-notes-0123456789", "VIKA_GEMINI_BASE_URL": gemini.URL, "VIKA_ABSTAIN_MIN_BM25": "0"})
	r, err := s.Ingest(t.Context(), writePDF(t, "sat.pdf", satPage1, satPage2), nil)
	if err != nil {
		t.Fatal(err)
	}
	doc := r.Doc.ID
	if _, err := s.AddNote(t.Context(), highlightOn(t, s, doc, 2, noteText)); err != nil {
		t.Fatal(err)
	}
	a, err := s.Ask(t.Context(), "What does the Tseitin encoding give?", rag.Options{Mode: "bm25", Scope: corpus.Scope{Mine: true}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("answer %s: %q (%d sources)", a.Kind, a.Answer, len(a.Sources))
	if !strings.Contains(gemini.Last().Body, `kind=\"student note\"`) {
		t.Error("the prompt does not mark the note as the student's")
	}
	if len(a.Citations) != 1 || !a.Citations[0].Verified || a.Citations[0].Kind != corpus.ChunkMine || a.Citations[0].Page != 2 {
		t.Fatalf("citations %+v, want one verified citation of the note on p.2", a.Citations)
	}
	for _, src := range a.Sources {
		if src.Kind != corpus.ChunkMine {
			t.Errorf("a source outside my notes: %+v", src)
		}
	}

	d, err := s.StudyCards(t.Context(), study.Scope{DocID: doc, Mine: true}, study.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	body := gemini.Last().Body
	if !strings.Contains(body, "Tseitin") || strings.Contains(body, "satisfying assignment") {
		t.Error("cards from highlights read more than the highlights")
	}
	if len(d.Cards) != 1 || d.Cards[0].Page != 2 || !d.Cards[0].Check.Verified {
		t.Fatalf("cards %+v", d.Cards)
	}
	// Without notes in the scope: a code, not an empty deck.
	other, err := s.Ingest(t.Context(), writePDF(t, "other.pdf", "Optics: Snell's law relates the angles of refraction."), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.StudyCards(context.Background(), study.Scope{DocID: other.Doc.ID, Mine: true}, study.Options{}, nil); err == nil || !strings.Contains(err.Error(), "no highlight") {
		t.Errorf("cards from a document without notes: %v", err)
	}
}
