package policy

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

// forbidden lists, for a backend package, the packages it must never
// depend on (directly or through another), with the reason: the cut of
// the stages written down (in the spirit of tailscale's tstest/deptest).
var forbidden = map[string]map[string]string{
	"vika/backend/retrieve": {
		"vika/backend/llm":     "search ranks passages without any language model",
		"vika/backend/engine":  "the engine uses the retriever, not the reverse",
		"vika/backend/session": "nothing below the session imports it",
	},
	"vika/backend/engine": {
		"vika/backend/rag":     "answering sits above the engine",
		"vika/backend/prompt":  "the engine reads and searches documents; prompts are answering's",
		"vika/backend/session": "nothing below the session imports it",
	},
	"vika/backend/rag": {
		"vika/backend/session": "the session opens rag, not the reverse",
		"vika/backend/cli":     "the command line is an adapter over the session",
	},
	"vika/backend/prompt": {
		"vika/backend/engine": "prompts are pure text building over passages",
		"vika/backend/store":  "prompts are pure text building over passages",
	},
	"vika/backend/study": {
		"vika/backend/rag": "study jobs ask models beside the answers, not through them: errors map through llm.Problem, selections are corpus.Selection",
	},
	"vika/backend/corpus":  {"vika/backend/store": "the shared types depend on no stage"},
	"vika/backend/llm":     {"vika/backend/corpus": "providers see requests, never documents", "vika/backend/secrets": "keys reach llm through its Keys interface"},
	"vika/backend/metrics": {"vika/backend/store": "records are values; the store keeps them"},
}

// onlyVika lists backend packages whose vika dependencies are all named.
var onlyVika = map[string][]string{
	"vika/backend/cite":    {"vika/backend/corpus", "vika/backend/message"}, // a pure citation checker
	"vika/backend/message": {},                                              // codes and their English, below everything
	"vika/backend/config":  {},                                              // the VIKA_* table, below everything
	"vika/backend/crash":   {"vika/backend/message"},                        // a panic as a coded error, for any background task
	"vika/backend/jobs":    {"vika/backend/crash", "vika/backend/message"},  // background tasks by id, below every orchestrator
}

// TestForbiddenImports checks the tables above and that nothing under
// backend/ but the command line depends on the session.
func TestForbiddenImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, "./backend/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		deps[f[0]] = f[1:]
	}
	for pkg, bad := range forbidden {
		if _, ok := deps[pkg]; !ok {
			t.Errorf("%s is not a package any more: update the table", pkg)
		}
		for dep, why := range bad {
			if slices.Contains(deps[pkg], dep) {
				t.Errorf("%s depends on %s: %s", pkg, dep, why)
			}
		}
	}
	for pkg, allowed := range onlyVika {
		for _, dep := range deps[pkg] {
			if strings.HasPrefix(dep, "vika/") && !slices.Contains(allowed, dep) {
				t.Errorf("%s depends on %s: it may use only %v", pkg, dep, allowed)
			}
		}
	}
	for pkg, ds := range deps {
		if pkg != "vika/backend/cli" && pkg != "vika/backend/session" && slices.Contains(ds, "vika/backend/session") {
			t.Errorf("%s depends on vika/backend/session: nothing below the session imports it", pkg)
		}
	}
}

// TestEveryPackageHasADoc: each package states its job in a doc comment
// (tailscale's pkgdoc_test).
func TestEveryPackageHasADoc(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", "webkit2_41", "-f", `{{.ImportPath}} {{.Doc}}`, "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if pkg, doc, _ := strings.Cut(line, " "); strings.TrimSpace(doc) == "" {
			t.Errorf("%s has no package doc comment", pkg)
		}
	}
}
