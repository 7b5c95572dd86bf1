// Package assetstest lets tests require the installed runtime assets
// (ONNX Runtime, USE-lite, the models of the box). Without them a test is skipped with the reason;
// `make test` installs them and sets VIKA_REQUIRE_ASSETS=1, which turns a
// missing asset into a failure, so these tests always run in CI.
package assetstest

import (
	"strings"
	"testing"

	"vika/backend/assets"
	"vika/backend/config"
	"vika/backend/models"
)

// Require returns the verified path of an installed asset, or skips (fails
// under VIKA_REQUIRE_ASSETS=1).
func Require(tb testing.TB, kind assets.Kind) string {
	tb.Helper()
	path, err := assets.Verify(kind)
	if err != nil {
		missing(tb, err)
	}
	return path
}

// RequireAll checks every asset of this platform, or skips (fails under
// VIKA_REQUIRE_ASSETS=1).
func RequireAll(tb testing.TB) {
	tb.Helper()
	if err := assets.Check(); err != nil {
		missing(tb, err)
	}
}

func missing(tb testing.TB, err error) {
	tb.Helper()
	if config.Getenv("VIKA_REQUIRE_ASSETS") == "1" {
		tb.Fatal(err)
	}
	tb.Skipf("assets not installed: run make assets (%v)", err)
}

// RequireBox returns the box's model called name (package models'
// registry) after checking that its files are installed and intact, or
// skips (fails under VIKA_REQUIRE_ASSETS=1). A model the manifest does not
// put in the box is a failure: the test names a model that cannot be had.
func RequireBox(tb testing.TB, name string) models.Model {
	tb.Helper()
	m, err := models.Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	boxed := false
	for _, e := range assets.Box() {
		boxed = boxed || strings.HasPrefix(e.Path, "models/"+m.Name+"/")
	}
	if !boxed {
		tb.Fatalf("%s is not in the box (backend/assets/manifest.json lists none of its files)", name)
	}
	if _, err := models.Verify(models.Root(), m); err != nil {
		missing(tb, err)
	}
	return m
}
