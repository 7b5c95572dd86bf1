package policy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// apiDir holds the page's API modules, one per app_<module>.go.
const apiDir = "frontend/src/lib/api"

// boundMethods parses the root package's Go files (not built: no Wails
// tag needed) and returns each exported method of App by the file it is
// declared in.
func boundMethods(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !fn.Name.IsExported() || receiver(fn) != "App" {
				continue
			}
			out[name] = append(out[name], fn.Name.Name)
		}
	}
	if len(out) == 0 {
		t.Fatal("no exported App method found: is the test running from the repository's root?")
	}
	return out
}

// receiver names the type of fn's receiver (App for func (a *App)).
func receiver(fn *ast.FuncDecl) string {
	typ := fn.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

var appCall = regexp.MustCompile(`\bApp\.([A-Z][A-Za-z0-9]*)\b`)

// TestOneGoFilePerAPIModule keeps the root package's promise: every
// method the window binds (an exported method of App) is declared in
// app_<module>.go and called from frontend/src/lib/api/<module>.ts, and an
// API module calls only the methods of its own Go file. A method in
// app.go or main.go, or one its module does not call, fails here.
func TestOneGoFilePerAPIModule(t *testing.T) {
	declared := map[string]string{} // method -> Go file
	for file, methods := range boundMethods(t) {
		module, ok := strings.CutPrefix(strings.TrimSuffix(file, ".go"), "app_")
		for _, m := range methods {
			declared[m] = file
			if !ok {
				t.Errorf("App.%s is declared in %s: move it to app_<module>.go, the file of the API module "+
					"(%s/<module>.ts) that calls it (docs/development.md, \"Adding a bound method\")", m, file, apiDir)
				continue
			}
			ts := filepath.Join(apiDir, module+".ts")
			src, err := os.ReadFile(ts)
			if err != nil {
				t.Errorf("App.%s is declared in %s but %s does not exist: create it (a function calling App.%s through call, "+
					"re-exported from %s/index.ts), or move the method to the app_<module>.go of the module that calls it", m, file, ts, m, apiDir)
				continue
			}
			if !slices.ContainsFunc(appCall.FindAllStringSubmatch(string(src), -1), func(c []string) bool { return c[1] == m }) {
				t.Errorf("App.%s is declared in %s but %s does not call it: call it there (App.%s through call), "+
					"or move the method to the app_<module>.go of the module that calls it", m, file, ts, m)
			}
		}
	}
	modules, err := filepath.Glob(filepath.Join(apiDir, "*.ts"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(modules)
	for _, ts := range modules {
		if strings.HasSuffix(ts, ".test.ts") || strings.HasSuffix(ts, ".d.ts") {
			continue
		}
		src, err := os.ReadFile(ts)
		if err != nil {
			t.Fatal(err)
		}
		module := strings.TrimSuffix(filepath.Base(ts), ".ts")
		for _, c := range appCall.FindAllStringSubmatch(string(src), -1) {
			m := c[1]
			want := "app_" + module + ".go"
			switch file, ok := declared[m]; {
			case !ok:
				t.Errorf("%s calls App.%s, which no Go file declares: add it to %s, or remove the call", ts, m, want)
			case file != want:
				t.Errorf("%s calls App.%s, declared in %s: move the method to %s, or the call to %s/%s",
					ts, m, file, want, apiDir, strings.TrimPrefix(strings.TrimSuffix(file, ".go"), "app_")+".ts")
			}
		}
	}
}
