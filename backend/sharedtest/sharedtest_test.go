package sharedtest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// recorder is a testing.TB that records how a test ended.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Skipf(format string, args ...any) {
	r.skip = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// run calls Require as a test would and reports how it ended.
func run(t *testing.T, rel string) (path string, r *recorder) {
	r = &recorder{TB: t}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		path = Require(r, rel)
	}()
	wg.Wait()
	return path, r
}

func TestRequire(t *testing.T) {
	paths, err := Manifest()
	if err != nil || len(paths) < 15 {
		t.Fatalf("Manifest() = %d paths, %v", len(paths), err)
	}
	empty := t.TempDir()
	full := t.TempDir()
	for _, p := range paths {
		f := filepath.Join(full, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { dataDir = Dir }()
	for _, tt := range []struct {
		name, dir, rel, env string
		fatal, skip         string // a substring of the message, "" for none
	}{
		{"present file", full, "pdfs/he2015_resnet.pdf", "1", "", ""},
		{"present folder", full, "scifact", "1", "", ""},
		{"missing, required", empty, "pdfs/he2015_resnet.pdf", "1", filepath.Join(empty, "pdfs", "he2015_resnet.pdf"), ""},
		{"missing folder, required", empty, "scifact", "1", filepath.Join(empty, "scifact", "corpus.jsonl"), ""},
		{"missing, not required", empty, "pdfs/he2015_resnet.pdf", "", "", filepath.Join(empty, "pdfs", "he2015_resnet.pdf")},
		{"not listed", full, "pdfs/other.pdf", "", "not listed in testdata/shared-data.txt", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dataDir = func() string { return tt.dir }
			t.Setenv(RequireEnv, tt.env)
			path, r := run(t, tt.rel)
			if tt.fatal == "" && r.fatal != "" || tt.fatal != "" && !strings.Contains(r.fatal, tt.fatal) {
				t.Errorf("fatal = %q, want %q", r.fatal, tt.fatal)
			}
			if tt.skip == "" && r.skip != "" || tt.skip != "" && !strings.Contains(r.skip, tt.skip) {
				t.Errorf("skip = %q, want %q", r.skip, tt.skip)
			}
			if tt.fatal == "" && tt.skip == "" && path != filepath.Join(tt.dir, filepath.FromSlash(tt.rel)) {
				t.Errorf("path = %q", path)
			}
		})
	}
}
