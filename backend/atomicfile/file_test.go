package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFileAtomic: a write that fails (here past RLIMIT_FSIZE, as a
// full disk fails it) leaves the previous export whole; a write that succeeds replaces it
// and leaves no temporary file.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "vika-conversation.md")
	if err := WriteFile(path, []byte("old answer"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new answer"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(got) != "new answer" || fi.Mode().Perm() != 0o644 {
		t.Errorf("content %q mode %v", got, fi.Mode().Perm())
	}
	big := make([]byte, 64<<10)
	if err := withFileSizeLimit(t, 4<<10, func() error { return WriteFile(path, big, 0o644) }); err == nil {
		t.Error("a write past the file-size limit (a full disk) succeeded")
	}
	if got, _ := os.ReadFile(path); string(got) != "new answer" {
		t.Errorf("after a failed write the file holds %q", got)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x.md"), []byte("x"), 0o644); err == nil {
		t.Error("a write into a missing directory succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the directory holds %d entries, want only the export", len(entries))
	}
}

// TestWriteFileRefusesALink: a symbolic link at the path is refused, not
// followed and not replaced by a regular file.
func TestWriteFileRefusesALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere.md")
	if err := os.WriteFile(target, []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "export.md")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new"), 0o644); err == nil {
		t.Error("a symbolic link was replaced")
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is gone: %v", err)
	}
	if got, _ := os.ReadFile(target); string(got) != "kept" {
		t.Errorf("the link's target holds %q", got)
	}
}
