package testpdf

import (
	"testing"

	"vika/backend/sharedtest"
)

// SharedPDF returns the path of a real PDF (or its ground truth) from the
// shared data set, ../shared/data/pdfs/<name> beside the repository. When
// it is absent the test is skipped, or fails under
// VIKA_REQUIRE_SHARED_DATA=1 (see sharedtest).
func SharedPDF(t testing.TB, name string) string {
	t.Helper()
	return sharedtest.Require(t, "pdfs/"+name)
}
