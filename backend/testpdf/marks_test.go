package testpdf

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// markedOut, when set, is where TestMarked writes its two PDFs for the
// window's screenshots (scripts/window/screenshots-forms.sh):
//
//	go test ./backend/testpdf -run TestMarked -args -marked-out DIR
var markedOut = flag.String("marked-out", "", "write application.pdf and lecture-notes.pdf there")

// MarkedForm and MarkedNotes are the screenshots' form and annotated
// lecture notes.
func markedForm() []byte {
	return Form(
		[]string{"Application for the physics laboratory", "", "Full name", "", "Department", "", "Safety training done", "Newsletter"},
		[]string{"Laboratory booking", "", "Student: Ada Lovelace", "Course: Analytical Engines", "Supervisor: Charles Babbage", "Room: B214"},
		[]Widget{
			{Name: "applicant.name", Label: "Full name", Type: "text", Value: "Marie Sklodowska", Rect: [4]float64{220, 684, 480, 702}},
			{Name: "applicant.dept", Label: "Department", Type: "choice", Value: "Radiochemistry", Opts: []string{"Physics", "Radiochemistry", "Biology"}, Rect: [4]float64{220, 652, 480, 670}},
			{Name: "safety", Label: "Safety training done", Type: "checkbox", Value: "Yes", Rect: [4]float64{220, 622, 234, 636}},
			{Name: "newsletter", Label: "Newsletter", Type: "checkbox", Rect: [4]float64{220, 606, 234, 620}},
		})
}

func markedNotes() []byte {
	return Annotated(
		[]string{"Lecture 7: optimisation", "", "Gradient descent converges for convex losses.", "The step size must stay below two over L.", "Momentum accelerates it on ill-conditioned problems.", "Further reading online."},
		[]Annot{
			{Type: "Text", Contents: "Ask the professor about Nesterov momentum before the exam", Rect: [4]float64{470, 660, 490, 680}},
			{Type: "Highlight", Contents: "exam question!", Rect: [4]float64{70, 669, 330, 684}},
			{Type: "FreeText", Contents: "Revoir la preuve de convergence", Rect: [4]float64{72, 560, 330, 580}},
			{Type: "Link", URI: "https://example.org/convex-optimisation", Rect: [4]float64{72, 637, 220, 650}},
			{Type: "Link", URI: "mailto:professor@example.org", Rect: [4]float64{230, 637, 400, 650}},
		})
}

func TestMarked(t *testing.T) {
	dir := *markedOut
	if dir == "" {
		dir = t.TempDir()
	}
	for name, data := range map[string][]byte{"application.pdf": markedForm(), "lecture-notes.pdf": markedNotes()} {
		if !bytes.HasPrefix(data, []byte("%PDF-")) || !bytes.HasSuffix(data, []byte("%%EOF\n")) {
			t.Fatalf("%s is not a whole PDF", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(markedForm(), markedForm()) {
		t.Error("the form is not deterministic")
	}
}
