package session

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"vika/backend/engine"
	"vika/backend/message"
)

// TestOpenFiles: what the command line names (`vika course.vika notes.pdf`,
// as a double-click or the desktop entry's Exec %F passes it) opens in a
// session without a display: the course file's PDFs come back as a
// course (not as a PDF that fails to parse), the PDF is added, and a
// damaged course file gets its own failed row with its code, adding
// nothing.
func TestOpenFiles(t *testing.T) {
	first := open(t, "", &heard{})
	if _, err := first.Ingest(t.Context(), writePDF(t, "sat.pdf",
		"Boolean satisfiability (SAT) asks whether a formula has a satisfying assignment."), nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	saved := filepath.Join(dir, "Term.VIKA") // the extension in any case
	if _, err := first.SaveCourse(t.Context(), saved, false); err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(dir, "classmate.vika")
	if err := os.WriteFile(damaged, []byte("SQLite format 3\x00 and then nothing a database holds"), 0o600); err != nil {
		t.Fatal(err)
	}
	pdf := writePDF(t, "graphs.pdf", "A graph is bipartite when its vertices split into two independent sets.")

	h := &heard{}
	s := open(t, "", h)
	jobs := s.OpenFiles(t.Context(), []string{saved, pdf, damaged})
	if len(jobs) != 1 {
		t.Fatalf("jobs %v, want one (the PDF)", jobs)
	}
	done := func(ev event) bool {
		p, ok := ev.payload.(engine.Progress)
		return ok && p.JobID == jobs[0] && (p.Stage == engine.StageDone || p.Stage == engine.StageFailed)
	}
	evs := h.wait(t, "the PDF's last", done)
	var refused *engine.Progress
	for _, ev := range evs {
		if p, ok := ev.payload.(engine.Progress); ok && p.File == "classmate.vika" {
			refused = &p
		}
		if p, ok := ev.payload.(engine.Progress); ok && done(ev) && p.Stage != engine.StageDone {
			t.Errorf("the PDF: %+v", p)
		}
	}
	if refused == nil || refused.Stage != engine.StageFailed || refused.Problem == nil || refused.Problem.Code != message.CourseDamaged {
		t.Errorf("the damaged course's row: %+v", refused)
	}
	docs, err := s.Documents(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range docs {
		names = append(names, d.File)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"graphs.pdf", "sat.pdf"}) {
		t.Errorf("documents %v, want the course's sat.pdf and graphs.pdf", names)
	}
}
