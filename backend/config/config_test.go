package config

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository, two levels up.
const root = "../.."

// TestConfigurationTable: the table of variables of docs/configuration.md
// lists exactly the settings of Vars (not the internal and test ones),
// with their defaults and meanings, in order.
func TestConfigurationTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "docs", "configuration.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "| `VIKA_") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	var want []Var
	for _, v := range Vars {
		if !v.Test {
			want = append(want, v)
		}
	}
	if len(rows) != len(want) {
		t.Fatalf("docs/configuration.md lists %d variables, config declares %d settings", len(rows), len(want))
	}
	for i, v := range want {
		r := rows[i]
		if len(r) != 4 || r[0] != "`"+v.Name+"`" || r[1] != string(v.Type) || r[2] != v.Default || r[3] != v.Meaning {
			t.Errorf("docs/configuration.md row %d: %q\nwant | `%s` | %s | %s | %s |", i+1, r, v.Name, v.Type, v.Default, v.Meaning)
		}
	}
}

// TestEveryNameDeclared: every VIKA_ name the Go sources (outside this
// package) spell is declared in Vars, once.
func TestEveryNameDeclared(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range Vars {
		if seen[v.Name] {
			t.Errorf("%s declared twice", v.Name)
		}
		seen[v.Name] = true
	}
	// VIKA_ABORTED is a C constant of package pdf's MuPDF glue; a name
	// ending in _ is a prefix in prose (VIKA_OCR_*).
	notVars := map[string]bool{"VIKA_ABORTED": true}
	name := regexp.MustCompile(`VIKA_[A-Z0-9_]*[A-Z0-9]\b`)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "frontend" || d.Name() == "config" || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, n := range name.FindAllString(string(b), -1) {
			if !seen[n] && !notVars[n] {
				t.Errorf("%s: %s is not declared in package config", path, n)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestGet(t *testing.T) {
	env := map[string]string{MaxPages.Name: " 12 "}
	if got := MaxPages.Get(func(k string) string { return env[k] }); got != "12" {
		t.Errorf("Get = %q", got)
	}
	if v, ok := Lookup("VIKA_MAX_PAGES"); !ok || v != MaxPages {
		t.Errorf("Lookup = %+v, %v", v, ok)
	}
	if _, ok := Lookup("VIKA_NOPE"); ok {
		t.Error("Lookup of an undeclared name")
	}
}
