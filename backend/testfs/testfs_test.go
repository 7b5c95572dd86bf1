package testfs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTreeSeesAWrite(t *testing.T) {
	dir := t.TempDir()
	if Tree(t, filepath.Join(dir, "missing")) != nil {
		t.Error("a missing folder lists as nil")
	}
	p := filepath.Join(dir, "a.db")
	if err := os.WriteFile(p, []byte("one marker-here two"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := Tree(t, dir)
	if len(before) != 2 {
		t.Fatalf("Tree = %v, want the folder and its file", before)
	}
	FlipByte(t, p, []byte("marker-here"))
	data, _ := os.ReadFile(p)
	if string(data) == "one marker-here two" || len(data) != len("one marker-here two") {
		t.Fatalf("FlipByte left %q", data)
	}
	if err := os.WriteFile(p, []byte("one marker-here two, longer"), 0o600); err != nil {
		t.Fatal(err)
	}
	if cmp.Equal(before, Tree(t, dir)) {
		t.Error("Tree did not change when the file grew")
	}
}
