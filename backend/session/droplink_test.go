package session

import (
	"os"
	"path/filepath"
	"testing"

	"vika/backend/engine"
)

// TestAddPathsFollowsADroppedLink: a symbolic link to a folder, dropped
// (a desktop link), adds the folder's PDFs as a batch. On main the link
// was listed as one skipped entry: a batch of nothing, no word of why, so
// this test fails there.
func TestAddPathsFollowsADroppedLink(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "term1")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(writePDF(t, "week1.pdf", "Unit propagation assigns the only literal left."), filepath.Join(real, "week1.pdf")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "term1-link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	h := &heard{}
	s := open(t, "", h)
	d, err := s.AddPaths(t.Context(), []string{link})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Folders) != 1 || len(d.Folders[0].Jobs) != 1 || d.Folders[0].PDFs[0] != filepath.Join(link, "week1.pdf") {
		t.Fatalf("AddPaths = %+v, want one batch with the link's PDF", d)
	}
	id := d.Folders[0].Jobs[0]
	for _, ev := range h.wait(t, "the end of "+id, func(ev event) bool {
		p, ok := ev.payload.(engine.Progress)
		return ok && p.JobID == id && (p.Stage == engine.StageDone || p.Stage == engine.StageFailed)
	}) {
		if p, ok := ev.payload.(engine.Progress); ok && p.JobID == id && p.Stage == engine.StageFailed {
			t.Errorf("job %s failed: %s", id, p.Error)
		}
	}
}
