// Package evaltest loads the shared BEIR SciFact data for tests. The data
// is not part of the repository (../shared/data beside it): without it a
// test is skipped, saying where the data was looked for.
package evaltest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"vika/backend/eval"
)

// SciFactDir is where the shared SciFact data is looked for.
func SciFactDir() string {
	_, file, _, _ := runtime.Caller(0) // .../backend/eval/evaltest/evaltest.go
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "shared", "data", "scifact")
}

// SciFact loads a split of SciFact, or skips when the data is absent.
func SciFact(tb testing.TB, split string) *eval.Dataset {
	tb.Helper()
	dir := SciFactDir()
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("SciFact not found at %s (../shared/data is not part of the repository): %v", dir, err)
	}
	ds, err := eval.LoadBEIR(dir, split)
	if err != nil {
		tb.Fatal(err)
	}
	return ds
}
