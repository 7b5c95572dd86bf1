package backend

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoWailsImports keeps the UI toolkit out of the backend, so every
// package here can be used headless and tested without a display.
func TestNoWailsImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/wailsapp/") {
			t.Errorf("backend depends on %s: keep Wails in main.go and app.go", pkg)
		}
	}
}
