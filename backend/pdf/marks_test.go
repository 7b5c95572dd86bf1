package pdf

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/testpdf"
)

// formPDF is the generated application form of the tests: text, check
// box, choice and radio fields on page 1, a "Label: value" layout on
// page 2.
func formPDF() []byte {
	return testpdf.Form(
		[]string{"Application for the physics laboratory", "Full name", "Department", "Safety training done", "Badge"},
		[]string{"Laboratory booking", "Student: Ada Lovelace", "Course: Analytical Engines", "Supervisor: Charles Babbage", "Room: B214", "", "Bring your own goggles. See Figure 2: the layout."},
		[]testpdf.Widget{
			{Name: "applicant.name", Label: "Full name", Type: "text", Value: "Élodie Curie", Rect: [4]float64{200, 690, 400, 706}},
			{Name: "applicant.dept", Type: "choice", Value: "Physics", Opts: []string{"Chemistry", "Physics", "Biology"}, Rect: [4]float64{200, 674, 400, 690}},
			{Name: "safety", Label: "Safety training done", Type: "checkbox", Value: "Yes", Rect: [4]float64{200, 658, 212, 670}},
			{Name: "newsletter", Label: "Newsletter", Type: "checkbox", Rect: [4]float64{300, 658, 312, 670}},
			{Name: "applicant.phone", Label: "Phone", Type: "text", Value: "", Rect: [4]float64{200, 620, 400, 636}},
			{Name: "badge", Label: "Badge", Type: "radio", Value: "Visitor", Rect: [4]float64{200, 642, 212, 654}},
			{Name: "badge", Label: "Badge", Type: "radio", Value: "Visitor", Rect: [4]float64{260, 642, 272, 654}},
		})
}

func marksOf(p corpus.Page, kind corpus.ChunkKind) []corpus.Region {
	var out []corpus.Region
	for _, r := range p.Regions {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

func TestFormFields(t *testing.T) {
	d, err := Open(formPDF(), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p, err := d.Page(1)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range p.Fields {
		names = append(names, f.Name+"="+f.Type+"="+f.Value)
	}
	want := []string{"applicant.name=text=Élodie Curie", "applicant.dept=combobox=Physics", "safety=checkbox=Yes", "newsletter=checkbox=Off", "applicant.phone=text=", "badge=radiobutton=Visitor"}
	if !slices.Equal(names, want) {
		t.Errorf("fields = %q, want %q", names, want)
	}
	c := p.Corpus("doc")
	var texts []string
	for _, r := range marksOf(c, corpus.ChunkForm) {
		texts = append(texts, r.Text)
	}
	wantTexts := []string{"Full name: Élodie Curie", "applicant.dept: Physics", "Safety training done: [x] Yes", "Newsletter: [ ]", "Badge: [x] Visitor"}
	if !slices.Equal(texts, wantTexts) {
		t.Errorf("form passages = %q, want %q (the empty phone field left out)", texts, wantTexts)
	}
	// Boxes in page space, origin at the top left: the name field is
	// drawn from y = 690 to 706 in PDF space on a 792 pt page.
	name := marksOf(c, corpus.ChunkForm)[0].BBox
	if want := [4]float64{200, 792 - 706, 400, 792 - 690}; !near(name, want) {
		t.Errorf("name field box = %v, want %v", name, want)
	}
	// The two radio widgets of one field make one passage whose box
	// holds both.
	badge := marksOf(c, corpus.ChunkForm)[4].BBox
	if badge[0] != 200 || badge[2] != 272 {
		t.Errorf("radio group box = %v, want x from 200 to 272", badge)
	}
}

func near(a, b [4]float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 0.5 {
			return false
		}
	}
	return true
}

func TestKeyValueLayout(t *testing.T) {
	d, err := Open(formPDF(), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p, err := d.Page(2)
	if err != nil {
		t.Fatal(err)
	}
	forms := marksOf(p.Corpus("doc"), corpus.ChunkForm)
	if len(forms) != 1 {
		t.Fatalf("form regions of page 2 = %+v, want one key-value run", forms)
	}
	want := "Student: Ada Lovelace\nCourse: Analytical Engines\nSupervisor: Charles Babbage\nRoom: B214"
	if forms[0].Text != want {
		t.Errorf("key-value passage = %q, want %q", forms[0].Text, want)
	}
	if b := forms[0].BBox; b[1] < 792-720-16 || b[3] > 792-720+16*5 {
		t.Errorf("key-value box = %v, want the four lines' rows", b)
	}
}

func TestIsKeyValue(t *testing.T) {
	for line, want := range map[string]bool{
		"Student: Ada Lovelace":                  true,
		"Date of birth: 1815-12-10":              true,
		"Nom : Marie Curie":                      true,
		"Figure 2: the layout":                   false,
		"Table 1: results":                       false,
		"Theorem: every x is y":                  false,
		"Proof: by induction on n.":              false,
		"the value: lower case label":            false,
		"Result: " + strings.Repeat("x", 90):     false,
		"A very long label of words here: value": false,
		"Name:":                                  false,
		"A : CmpdElem Cat susp,":                 false,
		"Q: Is Hampton Del Ruth older?":          false,
		"ADN : Acide désoxyriboNucléique":        true,
	} {
		if got := isKeyValue(line); got != want {
			t.Errorf("isKeyValue(%q) = %v, want %v", line, got, want)
		}
	}
}

func TestNotesAndLinks(t *testing.T) {
	lines := []string{"Gradient descent converges for convex losses.", "The step size must stay below two over L.", "Further reading online."}
	// Line i sits on the baseline y = 720 - 16 i in PDF space.
	data := testpdf.Annotated(lines, []testpdf.Annot{
		{Type: "Text", Contents: "Ask the professor about momentum", Rect: [4]float64{500, 700, 520, 720}},
		{Type: "Highlight", Contents: "exam question!", Rect: [4]float64{70, 701, 330, 716}},
		{Type: "FreeText", Contents: "Revoir pour l'examen", Rect: [4]float64{72, 600, 300, 620}},
		{Type: "Popup", Contents: "Ask the professor about momentum", Rect: [4]float64{520, 600, 600, 700}},
		{Type: "Square", Rect: [4]float64{60, 500, 100, 540}}, // no contents: no note
		{Type: "Link", URI: "https://example.org/convex", Rect: [4]float64{72, 685, 200, 697}},
		{Type: "Link", URI: "mailto:prof@example.org", Rect: [4]float64{72, 670, 200, 682}},
		{Type: "Link", URI: "javascript:alert(1)", Rect: [4]float64{72, 655, 200, 667}},
		{Type: "Link", URI: "https://example.org/convex", Rect: [4]float64{300, 685, 400, 697}}, // the same target again
		{Type: "Link", Rect: [4]float64{72, 640, 200, 652}},                                     // internal: not kept
	})
	d, err := Open(data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p, err := d.Page(1)
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	for _, r := range marksOf(p.Corpus("doc"), corpus.ChunkNote) {
		notes = append(notes, r.Text)
	}
	want := []string{
		"Ask the professor about momentum",
		"exam question!\n\n“The step size must stay below two over L.”",
		"Revoir pour l'examen",
	}
	if !slices.Equal(notes, want) {
		t.Errorf("notes = %q, want %q", notes, want)
	}
	var links []string
	for _, l := range p.Links {
		links = append(links, fmt.Sprintf("%d %s %v", l.Page, l.URI, l.Web()))
	}
	wantLinks := []string{"1 https://example.org/convex true", "1 mailto:prof@example.org false", "1 javascript:alert(1) false"}
	if !slices.Equal(links, wantLinks) {
		t.Errorf("links = %q, want %q", links, wantLinks)
	}
}

// TestMarksBounded: a page of 5,000 notes and links keeps MaxPageMarks
// of them, each note's contents cut to MaxMarkText.
func TestMarksBounded(t *testing.T) {
	var annots []testpdf.Annot
	for i := range 2500 {
		annots = append(annots, testpdf.Annot{Type: "Text", Contents: fmt.Sprintf("note %d ", i) + strings.Repeat("long ", 400), Rect: [4]float64{10, 10, 20, 20}})
		annots = append(annots, testpdf.Annot{Type: "Link", URI: fmt.Sprintf("https://example.org/%d", i), Rect: [4]float64{10, 10, 20, 20}})
	}
	d, err := Open(testpdf.Annotated([]string{"A page of many notes."}, annots), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p, err := d.Page(1)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.Notes) + len(p.Links); n > MaxPageMarks || len(p.Notes) == 0 {
		t.Errorf("notes + links = %d + %d, want at most %d and some notes", len(p.Notes), len(p.Links), MaxPageMarks)
	}
	for _, n := range p.Notes {
		if r := []rune(n.Text); len(r) > MaxMarkText {
			t.Fatalf("a note of %d characters kept, want at most %d", len(r), MaxMarkText)
		}
	}
}
