package engine

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"vika/backend/course"
	"vika/backend/message"
)

// TestCourseSaveOpen: a course saved from one session opens in another
// with the same documents, pages, passages and hits, without processing
// anything again; a PDF already there is reported, the others added; a
// tampered file is refused whole with its code.
func TestCourseSaveOpen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "stats"+course.Ext)
	a := newEngine(t, Config{})
	da := mustAdd(t, a, "stats.pdf", paperA)
	mustAdd(t, a, "info.pdf", paperB)
	if n, err := a.SaveCourse(ctx, path, []byte(`["conv"]`), nil, nil); err != nil || n != 2 {
		t.Fatalf("SaveCourse = %d, %v", n, err)
	}

	b := newEngine(t, Config{})
	var stages []string
	last := map[string]Progress{} // each job's last event
	res, err := b.OpenCourse(ctx, path, func(p Progress) {
		stages = append(stages, p.Stage)
		if p.JobID == "" {
			t.Errorf("a %s event of %s without a job id", p.Stage, p.File)
		}
		last[p.JobID] = p
	}, nil)
	if err != nil || len(res.Added) != 2 || len(res.Failed) != 0 || string(res.Conversation) != `["conv"]` {
		t.Fatalf("OpenCourse = %+v, %v", res, err)
	}
	for _, s := range stages {
		if s == StageOCR || s == StageEmbedding { // the PDFs are read again (claims.go), not OCRed nor embedded
			t.Errorf("opening the course ran the %s stage", s)
		}
	}
	// Each PDF's row ends (done, with its document), as an add's does.
	if len(last) != 2 {
		t.Errorf("%d job ids for 2 PDFs: %v", len(last), last)
	}
	for id, p := range last {
		if p.Stage != StageDone || p.Doc == nil || p.Doc.File != p.File {
			t.Errorf("job %s ends with %+v", id, p)
		}
	}
	docsA, _ := a.Documents(ctx)
	docsB, _ := b.Documents(ctx)
	ignore := cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".AddedAt" }, cmp.Ignore())
	if diff := cmp.Diff(docsA, docsB, ignore, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("documents (-saved +opened):\n%s", diff)
	}
	pa, _ := a.Pages(ctx, da.ID)
	pb, _ := b.Pages(ctx, da.ID)
	if diff := cmp.Diff(pa, pb); diff != "" {
		t.Errorf("pages (-saved +opened):\n%s", diff)
	}
	for _, q := range []string{"quagga savannah", "channel capacity"} {
		ha, _ := hitsOf(ctx, a, q, 3)
		hb, _ := hitsOf(ctx, b, q, 3)
		if len(ha) == 0 || !cmp.Equal(ha, hb) {
			t.Errorf("Search(%q): saved %v, opened %v", q, labels(ha), labels(hb))
		}
	}
	if b.DenseUnavailable() == nil && b.models.Load().ret.Vectors()["use-lite"] == 0 {
		t.Error("no vectors after opening")
	}

	// Opened again: both are duplicates, nothing changes.
	var failedRows []Progress
	res, err = b.OpenCourse(ctx, path, func(p Progress) {
		if p.Stage == StageFailed {
			failedRows = append(failedRows, p)
		}
	}, nil)
	if !cmp.Equal(failedRows, res.Failed) {
		t.Errorf("failed rows sent %+v, want each failed PDF's as it failed: %+v", failedRows, res.Failed)
	}
	if err != nil || len(res.Added) != 0 || len(res.Failed) != 2 || res.Failed[0].Problem.Code != message.Duplicate ||
		res.Failed[0].JobID == "" || res.Failed[0].JobID == res.Failed[1].JobID {
		t.Errorf("second open = %+v, %v", res, err)
	}

	// A PDF's bytes changed: refused whole, with its code.
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE documents SET pdf = CAST(CAST(? AS BLOB) || pdf AS BLOB) WHERE seq = 2`, "%PDF-1.4 "); err != nil {
		t.Fatal(err)
	}
	db.Close()
	c := newEngine(t, Config{})
	_, err = c.OpenCourse(ctx, path, nil, nil)
	if !errors.Is(err, course.ErrTampered) || message.Of(err).Code != message.CourseTampered {
		t.Errorf("tampered course: %v (%s)", err, message.Of(err).Code)
	}
	if docs, _ := c.Documents(ctx); len(docs) != 0 {
		t.Errorf("a tampered course added %d documents", len(docs))
	}
}
