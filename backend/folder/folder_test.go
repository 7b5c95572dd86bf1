package folder

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPDFs(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	for _, f := range []string{"a.pdf", "week2/b.PDF", "week2/notes.txt", "week2/deep/c.pdf", "photo.png"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("%PDF-1.4"), 0o644)
	}
	os.WriteFile(filepath.Join(outside, "secret.pdf"), []byte("%PDF-1.4"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "linked"))                                // a folder link: not followed
	os.Symlink(filepath.Join(outside, "secret.pdf"), filepath.Join(dir, "link.pdf")) // a file link: skipped

	l, err := PDFs(context.Background(), dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := Listing{Dir: dir, Found: 3, SkippedCount: 4,
		PDFs:    []string{filepath.Join(dir, "a.pdf"), filepath.Join(dir, "week2/b.PDF"), filepath.Join(dir, "week2/deep/c.pdf")},
		Skipped: []string{"link.pdf", "linked", "photo.png", "week2/notes.txt"}}
	if diff := cmp.Diff(want, l); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	capped, _ := PDFs(context.Background(), dir, 2)
	if !capped.Capped() || len(capped.PDFs) != 2 || capped.Found != 3 {
		t.Errorf("capped: %+v", capped)
	}
	if _, err := PDFs(context.Background(), filepath.Join(dir, "missing"), 0); err == nil {
		t.Error("a missing folder listed")
	}
}
