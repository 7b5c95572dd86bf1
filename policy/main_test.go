package policy

import (
	"fmt"
	"os"
	"testing"
)

// TestMain runs the tests from the repository's root: the rules name
// paths as the repository does (backend/..., frontend/src/lib/api, ...).
func TestMain(m *testing.M) {
	if err := os.Chdir(".."); err != nil {
		fmt.Fprintln(os.Stderr, "policy:", err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
