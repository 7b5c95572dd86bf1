package policy

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// scriptGroups are the folders scripts live in: setting up the machine,
// driving the window under Xvfb, and packaging (beside packaging/).
var scriptGroups = []string{"scripts/setup", "scripts/window", "packaging/scripts"}

// TestScriptsReached: every script sits in one of scriptGroups, bash
// accepts every shell script (bash -n), and each is named by something that
// runs or documents it: a Makefile target, CI, a document, another script
// or the asset manifest. A script nothing reaches is dead; one moved
// without its callers is caught here rather than on a fresh machine.
func TestScriptsReached(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatalf("bash is needed to check the scripts: %v", err)
	}
	stray, err := filepath.Glob("scripts/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range stray {
		if info, err := os.Stat(p); err == nil && !info.IsDir() || !isGroup(p) {
			t.Errorf("%s is outside the script folders %v", p, scriptGroups)
		}
	}
	readers := readersOfScripts(t)
	for _, group := range scriptGroups {
		entries, err := os.ReadDir(group)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			path := group + "/" + e.Name()
			if strings.HasSuffix(path, ".sh") {
				if out, err := exec.Command("bash", "-n", path).CombinedOutput(); err != nil {
					t.Errorf("bash -n %s: %v\n%s", path, err, out)
				}
			}
			if !reached(path, readers) {
				t.Errorf("%s is named by no Makefile target, CI, document, other script or the asset manifest", path)
			}
		}
	}
}

func isGroup(p string) bool {
	for _, g := range scriptGroups {
		if filepath.ToSlash(p) == g {
			return true
		}
	}
	return false
}

// readersOfScripts maps the files that may name a script (Makefile, .ci/run,
// every Markdown document, the scripts and packaging files, the asset
// manifest) to their text.
func readersOfScripts(t *testing.T) map[string]string {
	t.Helper()
	texts := map[string]string{}
	add := func(p string) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.ToSlash(p)] = string(data)
	}
	add("Makefile")
	add(".ci/run")
	add("backend/assets/manifest.json")
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		slash := filepath.ToSlash(p)
		if d.IsDir() {
			switch slash {
			case ".git", "build", "frontend/node_modules", "frontend/dist", "frontend/wailsjs":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(slash, ".md") || strings.HasPrefix(slash, "scripts/") || strings.HasPrefix(slash, "packaging/") {
			add(p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return texts
}

// reached reports whether a file other than path (or, for a directory,
// other than those inside it) names path.
func reached(path string, readers map[string]string) bool {
	for name, text := range readers {
		if name == path || strings.HasPrefix(name, path+"/") {
			continue
		}
		if strings.Contains(text, path) {
			return true
		}
	}
	return false
}
