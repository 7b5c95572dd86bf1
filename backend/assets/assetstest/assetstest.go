// Package assetstest lets tests require the installed runtime assets
// (ONNX Runtime, USE-lite). Without them a test is skipped with the reason;
// `make test` installs them and sets VIKA_REQUIRE_ASSETS=1, which turns a
// missing asset into a failure, so these tests always run in CI.
package assetstest

import (
	"testing"

	"vika/backend/assets"
	"vika/backend/config"
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
