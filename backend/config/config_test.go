package config

import (
	"bytes"
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
	// A name spelled C.VIKA_... is a C constant of package pdf's MuPDF
	// glue, not a variable; a name ending in _ is a prefix in prose
	// (VIKA_OCR_*).
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
		for _, at := range name.FindAllStringIndex(string(b), -1) {
			n := string(b[at[0]:at[1]])
			if !seen[n] && !bytes.HasSuffix(b[:at[0]], []byte("C.")) {
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

// TestOnlyConfigReadsTheEnvironment: outside tests, no Go file but this
// package's calls or passes os.Getenv or os.LookupEnv; the others read a
// Var or pass config.Getenv.
func TestOnlyConfigReadsTheEnvironment(t *testing.T) {
	call := regexp.MustCompile(`\bos\.(Getenv|LookupEnv)\b`)
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "config" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		if loc := call.FindIndex(b); loc != nil {
			t.Errorf("%s:%d uses %s: read a config.Var or pass config.Getenv", path, 1+strings.Count(string(b[:loc[0]]), "\n"), b[loc[0]:loc[1]])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d Go files checked: is root the repository?", checked)
	}
}

func TestIntAccessor(t *testing.T) {
	env := map[string]string{"VIKA_MAX_PAGES": " 12 ", "VIKA_PAGE_TIMEOUT_S": "soon", "VIKA_OCR_PAGE_TIMEOUT_S": "0"}
	get := func(k string) string { return env[k] }
	if n, err := MaxPages.Int(get, 3000, 1, 1<<31-1); n != 12 || err != nil {
		t.Errorf("set: %d, %v", n, err)
	}
	if n, err := MaxFileMB.Int(get, 200, 1, 1<<30-1); n != 200 || err != nil {
		t.Errorf("unset: %d, %v", n, err)
	}
	for _, v := range []Var{PageTimeoutS, OCRPageTimeout} {
		if n, err := v.Int(get, 30, 1, 100); n != 30 || err == nil || !strings.Contains(err.Error(), v.Name) {
			t.Errorf("%s bad: %d, %v: want the default and an error naming it", v.Name, n, err)
		}
	}
}
