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
// session without a display, each path as a background job: the course
// file's PDFs come back as a course (not as a PDF that fails to parse),
// the PDF is added, and a damaged course file's job fails with its code,
// adding nothing.
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
	jobs := s.OpenFiles([]string{saved, pdf, damaged})
	if len(jobs) != 3 {
		t.Fatalf("jobs %v, want one per path", jobs)
	}
	last := map[string]engine.Progress{}
	h.wait(t, "every job's last", func(ev event) bool {
		if p, ok := ev.payload.(engine.Progress); ok && slices.Contains(jobs, p.JobID) && slices.Contains(engine.TerminalStages, p.Stage) {
			last[p.JobID] = p
		}
		return len(last) == len(jobs)
	})
	for i, want := range []string{engine.StageDone, engine.StageDone, engine.StageFailed} {
		if p := last[jobs[i]]; p.Stage != want {
			t.Errorf("job %d (%s): %+v, want %s", i, p.File, p, want)
		}
	}
	if refused := last[jobs[2]]; refused.File != "classmate.vika" || refused.Problem == nil || refused.Problem.Code != message.CourseDamaged {
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
