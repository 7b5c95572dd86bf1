package session

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/notes"
	"vika/backend/pdf"
)

// TestAnnotatedCopyFromNotes: a highlight with its note and a page note
// made through the session are written into a copy of the PDF; MuPDF
// reads them back where they were put (the highlight over the line
// highlighted, in its colour, with its note; the page note as a Text
// note on its page); pdf.js (the window's reader) reads the same; and the
// copy added to another session is read by Vika's own reader of PDF
// annotations: the notes come back as passages of kind note, found by a
// question. The session's document is unchanged.
func TestAnnotatedCopyFromNotes(t *testing.T) {
	s := open(t, "", &heard{})
	path := writePDF(t, "sat.pdf", satPage1, satPage2)
	original, _ := os.ReadFile(path)
	r, err := s.Ingest(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc := r.Doc.ID
	if _, _, err := s.AnnotatedCopy(t.Context(), doc); err == nil {
		t.Error("a copy of a document without notes: no error")
	}
	hl, err := s.AddNote(t.Context(), highlightOn(t, s, doc, 2, noteText))
	if err != nil {
		t.Fatal(err)
	}
	pn, err := s.AddNote(t.Context(), notes.Note{DocID: doc, Page: 1, Kind: notes.PageNote, Color: "pink", Text: "Revise this page before Friday"})
	if err != nil {
		t.Fatal(err)
	}
	data, name, err := s.AnnotatedCopy(t.Context(), doc)
	if err != nil {
		t.Fatal(err)
	}
	if name != "sat-annotated.pdf" || !bytes.HasPrefix(data, original) {
		t.Errorf("copy %q: want sat-annotated.pdf, the original bytes then an update", name)
	}
	_, kept, _ := s.DocumentFile(t.Context(), doc)
	if !bytes.Equal(kept, original) {
		t.Error("the session's document changed")
	}

	d, err := pdf.Open(data, pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	one, err := d.Annotations(1)
	if err != nil {
		t.Fatal(err)
	}
	two, err := d.Annotations(2)
	if err != nil {
		t.Fatal(err)
	}
	pink, _ := notes.Color("pink").RGB()
	green, _ := notes.Color("green").RGB()
	if len(one) != 1 || one[0].Kind != pdf.AnnotNote || one[0].Text != pn.Text || !near3(one[0].Color, pink) {
		t.Errorf("page 1 reads %+v, want the page note", one)
	}
	if len(two) != 1 || two[0].Kind != pdf.AnnotHighlight || two[0].Text != hl.Text || !near3(two[0].Color, green) || len(two[0].Boxes) != 1 {
		t.Fatalf("page 2 reads %+v, want the highlight", two)
	}
	got, want := two[0].Boxes[0], hl.Boxes[0]
	for i, v := range []float64{got.X0, got.Y0, got.X1, got.Y1} {
		if math.Abs(v-want[i]) > 1 {
			t.Errorf("the highlight is at %+v, it was put at %v", got, want)
			break
		}
	}
	pdfjsReads(t, data, []string{pn.Text, hl.Text})

	// Vika's own reader of annotations (package pdf's marks): the notes
	// of the copy are passages of kind note, found by a question.
	other := open(t, "", &heard{})
	copyPath := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(copyPath, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Ingest(t.Context(), copyPath, nil); err != nil {
		t.Fatal(err)
	}
	res, err := other.Search(t.Context(), "Tseitin encoding equisatisfiable", engine.SearchOptions{Mode: "bm25", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].Kind != corpus.ChunkNote || res.Hits[0].Page != 2 || !strings.Contains(res.Hits[0].Text, "Tseitin") {
		t.Errorf("the copy's highlight note is not found as a note passage of page 2: %+v", res.Hits)
	}
	res, _ = other.Search(t.Context(), "Revise this page before Friday", engine.SearchOptions{Mode: "bm25", K: 3})
	if len(res.Hits) == 0 || res.Hits[0].Kind != corpus.ChunkNote || res.Hits[0].Page != 1 {
		t.Errorf("the copy's page note is not found as a note passage of page 1: %+v", res.Hits)
	}
}

func near3(a, b [3]float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 0.01 {
			return false
		}
	}
	return true
}

// pdfjsReads reads the copy's annotations with pdf.js (the frontend's
// pdfjs-dist, run by node with package pdf's reader script) and checks
// their contents, in page order.
func pdfjsReads(t *testing.T, data []byte, contents []string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: pdf.js cannot read the copy")
	}
	mod, _ := filepath.Abs("../../frontend/node_modules/pdfjs-dist/legacy/build/pdf.mjs")
	if _, err := os.Stat(mod); err != nil {
		t.Fatalf("pdfjs-dist is not installed (npm ci in frontend/): %v", err)
	}
	cmd := exec.Command(node, "../pdf/testdata/annotations.mjs", mod)
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got []struct {
		Page     int    `json:"page"`
		Subtype  string `json:"subtype"`
		Contents string `json:"contents"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(contents) {
		t.Fatalf("pdf.js reads %s", out)
	}
	for i, c := range contents {
		if got[i].Contents != c {
			t.Errorf("pdf.js annotation %d: %q, want %q", i, got[i].Contents, c)
		}
	}
}
