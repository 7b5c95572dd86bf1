package engine

import (
	"context"
	"testing"

	"vika/backend/corpus"
	"vika/backend/testpdf"
)

// TestFormsAndNotesAreFound: a PDF's form fields and the notes written on
// it in another reader are read in the worker, become passages of kinds
// form and note, and come back from a search with their boxes (for the
// viewer to outline); its web links are kept with the document.
func TestFormsAndNotesAreFound(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	form := testpdf.Form(
		[]string{"Application for the physics laboratory", "Full name", "Department"},
		[]string{"Laboratory booking", "Student: Ada Lovelace", "Course: Analytical Engines", "Supervisor: Charles Babbage"},
		[]testpdf.Widget{
			{Name: "applicant.name", Label: "Full name", Type: "text", Value: "Marie Sklodowska", Rect: [4]float64{200, 690, 400, 706}},
			{Name: "dept", Label: "Department", Type: "choice", Value: "Radiochemistry", Opts: []string{"Physics", "Radiochemistry"}, Rect: [4]float64{200, 674, 400, 690}},
		})
	notes := testpdf.Annotated(
		[]string{"Gradient descent converges for convex losses.", "The step size must stay below two over L."},
		[]testpdf.Annot{
			{Type: "Text", Contents: "Ask the professor about Nesterov momentum", Rect: [4]float64{500, 700, 520, 720}},
			{Type: "Link", URI: "https://example.org/convex", Rect: [4]float64{72, 685, 200, 697}},
			{Type: "Link", URI: "file:///etc/passwd", Rect: [4]float64{72, 670, 200, 682}},
		})
	mustAdd(t, e, "application.pdf", form)
	doc := mustAdd(t, e, "lecture.pdf", notes)

	for _, c := range []struct {
		query string
		kind  corpus.ChunkKind
		page  int
	}{
		{"which department did the applicant choose radiochemistry", corpus.ChunkForm, 1},
		{"who is the supervisor Charles Babbage", corpus.ChunkForm, 2},
		{"Nesterov momentum professor", corpus.ChunkNote, 1},
	} {
		hits, err := hitsOf(ctx, e, c.query, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 || hits[0].Kind != c.kind || hits[0].Page != c.page || hits[0].BBox == nil {
			t.Errorf("%q: hits = %+v, want a %s passage of page %d with its box first", c.query, hits, c.kind, c.page)
		}
	}
	docs, err := e.Documents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if d.ID != doc.ID {
			continue
		}
		if len(d.Links) != 2 || d.Links[0].URI != "https://example.org/convex" || !d.Links[0].Web() || d.Links[1].Web() {
			t.Errorf("links = %+v, want the web link then the file link", d.Links)
		}
		if d.Regions[corpus.ChunkNote] != 1 {
			t.Errorf("regions = %v, want one note", d.Regions)
		}
	}
}
