// Package evaltest loads the shared BEIR SciFact data for tests. The data
// is not part of the repository (../shared/data beside it): without it a
// test is skipped, saying which file is missing, or fails under
// VIKA_REQUIRE_SHARED_DATA=1 (see sharedtest).
package evaltest

import (
	"path/filepath"
	"testing"

	"vika/backend/eval"
	"vika/backend/sharedtest"
)

// SciFactDir is where the shared SciFact data is looked for.
func SciFactDir() string { return filepath.Join(sharedtest.Dir(), "scifact") }

// SciFact loads a split of SciFact, or skips (fails under
// VIKA_REQUIRE_SHARED_DATA=1) when the data is absent.
func SciFact(tb testing.TB, split string) *eval.Dataset {
	tb.Helper()
	dir := sharedtest.Require(tb, "scifact")
	ds, err := eval.LoadBEIR(dir, split)
	if err != nil {
		tb.Fatal(err)
	}
	return ds
}
