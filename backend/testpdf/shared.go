package testpdf

import (
	"os"
	"path/filepath"
	"testing"
)

// SharedPDF returns the path of a real PDF from the shared data set
// (../shared/data/pdfs/<name> relative to the repository root, found by
// walking up to go.mod), or skips the test when it is absent.
func SharedPDF(t testing.TB, name string) string {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Skipf("skipping: cannot locate the repository root: %v", err)
	}
	path := filepath.Join(root, "..", "shared", "data", "pdfs", name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("skipping: real PDF %s not available (%v); it lives in ../shared/data/pdfs next to the repository", name, err)
	}
	return path
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
