package session

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"vika/backend/course"
	"vika/backend/engine"
	"vika/backend/ingest"
	"vika/backend/testpdf"
)

// TestCourseOpensInTheBackground: opening a course (a double-click's
// OpenFiles, as the window's domReady calls it on Wails' one message
// goroutine) returns at once with the job's id; while the course is being
// opened (held here mid-open, its PDFs being processed again: it was made
// by another pipeline) the calls the window makes are answered; Cancel
// stops it. On main OpenFiles opened the course before returning, so the
// window answered nothing until the course was in.
func TestCourseOpensInTheBackground(t *testing.T) {
	dir := t.TempDir()
	pdfs := []course.Document{}
	for i, text := range []string{
		"Boolean satisfiability asks whether a formula has a satisfying assignment.",
		"Unit propagation assigns the only literal left in a unit clause.",
		"Conflict-driven clause learning adds a learnt clause at each conflict.",
	} {
		pdfs = append(pdfs, courseDoc(t, []string{"sat.pdf", "units.pdf", "cdcl.pdf"}[i], testpdf.Text(text)))
	}
	path := filepath.Join(dir, "term.vika")
	if err := course.Save(t.Context(), path, course.Course{Documents: pdfs}); err != nil {
		t.Fatal(err)
	}

	inside := make(chan engine.Progress, 1)
	release := make(chan struct{})
	h := &heard{}
	h.hold = func(ev event) {
		// The course job, checked and at its first PDF: held there.
		if p, ok := ev.payload.(engine.Progress); ok && p.Stage == engine.StageCourse && p.Total > 0 && p.Done == 0 {
			inside <- p
			<-release
		}
	}
	s := open(t, "", h)
	jobs := s.OpenFiles([]string{path})
	if len(jobs) != 1 {
		t.Fatalf("jobs %v", jobs)
	}
	p := <-inside // the job is inside the open, and stays there
	if p.JobID != jobs[0] || p.Total != 3 {
		t.Fatalf("course progress %+v", p)
	}
	ctx := t.Context()
	if _, err := s.Documents(ctx); err != nil {
		t.Errorf("Documents during the open: %v", err)
	}
	if _, err := s.Settings(); err != nil {
		t.Errorf("Settings during the open: %v", err)
	}
	if _, err := s.Search(ctx, "unit clause", engine.SearchOptions{}); err != nil {
		t.Errorf("Search during the open: %v", err)
	}
	close(release)
	evs := h.wait(t, "the course's end", func(ev event) bool {
		p, ok := ev.payload.(engine.Progress)
		return ok && p.JobID == jobs[0] && slices.Contains(engine.TerminalStages, p.Stage)
	})
	if last := evs[len(evs)-1].payload.(engine.Progress); last.Stage != engine.StageDone {
		t.Fatalf("the course's job ended %+v", last)
	}
	if docs, err := s.Documents(ctx); err != nil || len(docs) != 3 {
		t.Fatalf("Documents = %d, %v; want the course's 3", len(docs), err)
	}

	// Cancelled while its first PDF is being read (held at that PDF's
	// first step): the course's job ends cancelled, and so does the PDF's
	// row (on main it stayed at its last step), every row ending once;
	// the session goes on.
	inside2 := make(chan struct{}, 1)
	release2 := make(chan struct{})
	var once sync.Once
	h2 := &heard{}
	h2.hold = func(ev event) {
		p, ok := ev.payload.(engine.Progress)
		if ok && p.File != "term.vika" && p.Stage == engine.StageValidating { // a PDF's row, not the course's
			once.Do(func() {
				inside2 <- struct{}{}
				<-release2
			})
		}
	}
	s2 := open(t, "", h2)
	courseID := s2.StartCourse(path)
	<-inside2
	if !s2.Cancel(courseID) {
		t.Fatal("Cancel: the course's job is not running")
	}
	close(release2)
	evs = h2.wait(t, "the cancelled course's end", func(ev event) bool {
		p, ok := ev.payload.(engine.Progress)
		return ok && p.JobID == courseID && slices.Contains(engine.TerminalStages, p.Stage)
	})
	if last := lastOf(evs, courseID); last.Stage != engine.StageCancelled {
		t.Errorf("cancelled course ended %+v", last)
	}
	ends := map[string]int{}
	for _, ev := range evs {
		if p, ok := ev.payload.(engine.Progress); ok {
			if _, seen := ends[p.JobID]; !seen {
				ends[p.JobID] = 0
			}
			if slices.Contains(engine.TerminalStages, p.Stage) {
				ends[p.JobID]++
			}
		}
	}
	if len(ends) < 2 {
		t.Fatalf("rows %v: want the course's and its first PDF's", ends)
	}
	for id, n := range ends {
		if n != 1 {
			t.Errorf("row %s ended %d times, want once", id, n)
		}
	}
	if docs, err := s2.Documents(context.Background()); err != nil || len(docs) != 0 {
		t.Errorf("the session after a cancelled course: %d documents, %v; want none", len(docs), err)
	}
}

// courseDoc is a course document of pdf made by another pipeline: opening
// it processes the PDF again.
func courseDoc(t *testing.T, name string, pdf []byte) course.Document {
	t.Helper()
	return course.Document{File: name, PDF: pdf, SHA256: ingest.DocID(pdf), Setup: "another-vika"}
}

func lastOf(evs []event, id string) engine.Progress {
	var last engine.Progress
	for _, ev := range evs {
		if p, ok := ev.payload.(engine.Progress); ok && p.JobID == id {
			last = p
		}
	}
	return last
}
