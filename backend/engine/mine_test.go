package engine

import (
	"context"
	"path/filepath"
	"testing"

	"vika/backend/corpus"
	"vika/backend/retrieve"
	"vika/backend/testpdf"
)

// TestMinePassages: the student's own passages set on a document are
// searched (alone under a "my notes" scope), survive a re-chunking, are
// replaced as they change, and are not written into a course file's
// document data (the session keeps them in their own table).
func TestMinePassages(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{NoEmbeddings: true})
	doc := mustAdd(t, e, "sat.pdf", testpdf.Text("Boolean satisfiability asks whether a formula has a satisfying assignment."))
	mine := func(id, text string) corpus.Chunk {
		return corpus.Chunk{ID: id, DocID: doc.ID, Page: 1, Text: text, Kind: corpus.ChunkMine, PageType: corpus.PageText, Lang: "en"}
	}
	search := func(q string, sc corpus.Scope) []corpus.Hit {
		t.Helper()
		res, err := e.Search(ctx, retrieve.Query{Question: q}, SearchOptions{Mode: retrieve.ModeBM25, K: 5, Scope: sc})
		if err != nil {
			t.Fatal(err)
		}
		return res.Hits
	}
	if err := e.SetMine(ctx, doc.ID, []corpus.Chunk{mine("mine-a", "Tseitin encoding gives an equisatisfiable CNF"), mine("mine-b", "exam question on DPLL")}); err != nil {
		t.Fatal(err)
	}
	if err := e.SetMine(ctx, doc.ID, []corpus.Chunk{{ID: "x", DocID: doc.ID, Kind: corpus.ChunkBody}}); err == nil {
		t.Error("a passage of another kind was taken as the student's own")
	}
	if hits := search("Tseitin encoding", corpus.Scope{Mine: true}); len(hits) != 1 || hits[0].ChunkID != "mine-a" || hits[0].Kind != corpus.ChunkMine {
		t.Errorf("my notes for Tseitin: %+v", hits)
	}
	for _, h := range search("satisfying assignment formula", corpus.Scope{Mine: true}) {
		if h.Kind != corpus.ChunkMine {
			t.Errorf("a document passage under my notes: %+v", h)
		}
	}
	if _, err := e.Rechunk(ctx, doc.ID); err != nil {
		t.Fatal(err)
	}
	if hits := search("exam question DPLL", corpus.Scope{Mine: true}); len(hits) != 1 || hits[0].ChunkID != "mine-b" {
		t.Errorf("after re-chunking: %+v", hits)
	}
	// One note deleted, one edited.
	if err := e.SetMine(ctx, doc.ID, []corpus.Chunk{mine("mine-b", "exam question on resolution")}); err != nil {
		t.Fatal(err)
	}
	if hits := search("Tseitin", corpus.Scope{Mine: true}); len(hits) != 0 {
		t.Errorf("a deleted note is found: %+v", hits)
	}
	if hits := search("DPLL", corpus.Scope{Mine: true}); len(hits) != 0 {
		t.Errorf("an edited note is found by its old text: %+v", hits)
	}
	if hits := search("resolution", corpus.Scope{Mine: true}); len(hits) != 1 {
		t.Errorf("an edited note is not found by its new text: %+v", hits)
	}
	path := filepath.Join(t.TempDir(), "c.vika")
	if _, err := e.SaveCourse(ctx, path, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	other := newEngine(t, Config{NoEmbeddings: true})
	if _, err := other.OpenCourse(ctx, path, nil, nil); err != nil {
		t.Fatal(err)
	}
	chunks, err := other.Chunks(ctx, doc.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		if c.Kind == corpus.ChunkMine {
			t.Errorf("the course's document data holds a note passage: %+v", c)
		}
	}
}
