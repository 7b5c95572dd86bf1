package session

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"vika/backend/engine"
	"vika/backend/testpdf"
)

// TestAddPathsFolderDrop: a drop of a folder, a PDF and a course file
// adds the PDF, every PDF under the folder (a subfolder's too) as one
// batch, the other files and a symbolic link listed as skipped, like Add
// folder, and opens the course; every job ends done and the library
// holds the four PDFs.
func TestAddPathsFolderDrop(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "term1")
	write := func(rel string, data []byte) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("week1.pdf", testpdf.Text("Boolean satisfiability asks whether a formula has a satisfying assignment."))
	write("labs/week2.PDF", testpdf.Text("Unit propagation assigns the only literal left in a unit clause."))
	write("notes.txt", []byte("not a PDF"))
	if err := os.Symlink(filepath.Join(dir, "week1.pdf"), filepath.Join(dir, "link.pdf")); err != nil {
		t.Fatal(err)
	}
	loose := writePDF(t, "syllabus.pdf", "The course covers SAT solving, DPLL and CDCL.")
	saved := open(t, "", &heard{})
	if _, err := saved.Ingest(t.Context(), writePDF(t, "cdcl.pdf", "Conflict-driven clause learning adds a learnt clause at each conflict."), nil); err != nil {
		t.Fatal(err)
	}
	vika := filepath.Join(root, "last-term.vika")
	if _, err := saved.SaveCourse(t.Context(), vika, false); err != nil {
		t.Fatal(err)
	}

	h := &heard{}
	s := open(t, "", h)
	d, err := s.AddPaths(t.Context(), []string{loose, vika, dir})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Files, []string{loose, vika}) || len(d.Jobs) != 2 || len(d.Folders) != 1 {
		t.Fatalf("AddPaths = %+v, want the loose PDF and the course as files (a job each) and one folder", d)
	}
	b := d.Folders[0]
	if b.Dir != dir || b.Found != 2 || len(b.PDFs) != 2 || len(b.Jobs) != 2 || b.Capped {
		t.Errorf("folder batch = %+v, want the two PDFs of %s", b, dir)
	}
	slices.Sort(b.Skipped)
	if !slices.Equal(b.Skipped, []string{"link.pdf", "notes.txt"}) || b.SkippedCount != 2 {
		t.Errorf("skipped = %q (%d), want link.pdf and notes.txt", b.Skipped, b.SkippedCount)
	}
	for _, id := range append(slices.Clone(d.Jobs), b.Jobs...) {
		evs := h.wait(t, "the end of "+id, func(ev event) bool {
			p, ok := ev.payload.(engine.Progress)
			return ok && p.JobID == id && (p.Stage == engine.StageDone || p.Stage == engine.StageFailed)
		})
		for _, ev := range evs {
			if p, ok := ev.payload.(engine.Progress); ok && p.JobID == id && p.Stage == engine.StageFailed {
				t.Errorf("job %s (%s) failed: %s", id, p.File, p.Error)
			}
		}
	}
	docs, err := s.Documents(t.Context())
	if err != nil || len(docs) != 4 {
		t.Fatalf("Documents = %d documents, %v; want 4 (the course's, the loose PDF, the folder's two)", len(docs), err)
	}
}

// TestAddPathsListingFails: a folder whose listing fails (here: the drop
// is cancelled) fails the drop before anything starts, the PDF dropped
// with it included (a job says "queued" as it starts: none did).
func TestAddPathsListingFails(t *testing.T) {
	h := &heard{}
	s := open(t, "", h)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.AddPaths(ctx, []string{writePDF(t, "a.pdf", "text"), dir}); !errors.Is(err, context.Canceled) {
		t.Fatalf("AddPaths = %v, want the listing's error", err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.evs) != 0 {
		t.Errorf("events after a failed drop: %+v, want none (nothing started)", h.evs)
	}
}
