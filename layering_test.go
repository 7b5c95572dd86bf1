package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestBackendHasNoWails keeps the UI toolkit out of backend/, so every
// package there can be used headless and tested without a display: Wails
// belongs to main.go and app*.go.
func TestBackendHasNoWails(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./backend/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	pkgs := strings.Fields(string(out))
	if !slices.Contains(pkgs, "vika/backend/engine") {
		t.Fatalf("go list did not list the backend: %q", out)
	}
	for _, pkg := range pkgs {
		if strings.HasPrefix(pkg, "github.com/wailsapp/") {
			t.Errorf("backend depends on %s: keep Wails in main.go and app.go", pkg)
		}
	}
}
