package study

import (
	"testing"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/testpdf"
)

// TestHitsCiteTheDocumentsLabel: a study passage of a same-named twin is
// cited by the twin's label ("notes.pdf (2)"), as the chat cites it, not
// by the file name both share.
func TestHitsCiteTheDocumentsLabel(t *testing.T) {
	eng, err := engine.New(t.Context(), engine.Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if _, err := addPDF(t, eng, "notes.pdf", testpdf.Text("Unit propagation assigns the last literal of a unit clause.")); err != nil {
		t.Fatal(err)
	}
	twin, err := addPDF(t, eng, "notes.pdf", testpdf.Text("Resolution refutes an unsatisfiable set of clauses."))
	if err != nil {
		t.Fatal(err)
	}
	if twin.Label == twin.File {
		t.Fatalf("the twin's label is %q, its file's name", twin.Label)
	}
	chunks, err := eng.Chunks(t.Context(), twin.ID)
	if err != nil || len(chunks) == 0 {
		t.Fatalf("chunks %v, %v", chunks, err)
	}
	if got, want := hitOf(twin, chunks[0]).Label, corpus.CitationLabel(twin.Label, "", chunks[0].Page); got != want {
		t.Errorf("the twin's passage is cited %s, want %s", got, want)
	}
}
