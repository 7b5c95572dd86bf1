package mathml

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// formulas reads the repository's shared fixture (also read by the
// window's tests, frontend/src/lib/math.test.ts).
func formulas(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile("../../testdata/latex/formulas.txt")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, tex, ok := strings.Cut(line, " | ")
		if !ok {
			t.Fatalf("line %q has no \" | \"", line)
		}
		out[name] = tex
	}
	return out
}

var (
	annotation = regexp.MustCompile(`<annotation encoding="application/x-tex">[^<]*</annotation>`)
	tag        = regexp.MustCompile(`<[^>]*>`)
	command    = regexp.MustCompile(`\\[A-Za-z]+`)
)

func TestRenderFormulasOfTheSharedPDFs(t *testing.T) {
	all := formulas(t)
	if len(all) < 40 {
		t.Fatalf("%d formulas in the fixture, want at least 40", len(all))
	}
	for name, tex := range all {
		for _, display := range []bool{false, true} {
			ml, err := Render(tex, display)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if !strings.HasPrefix(ml, "<math") || strings.Contains(ml, "<merror") {
				t.Errorf("%s: not clean MathML: %.80s", name, ml)
			}
			if display != strings.Contains(ml, `display="block"`) {
				t.Errorf("%s: display %v, got %.80s", name, display, ml)
			}
			if !strings.Contains(ml, "<annotation encoding=\"application/x-tex\">") {
				t.Errorf("%s: no LaTeX annotation", name)
			}
			seen := tag.ReplaceAllString(annotation.ReplaceAllString(ml, ""), "")
			if c := command.FindString(seen); c != "" {
				t.Errorf("%s: %s left as text in %q", name, c, seen)
			}
		}
	}
}

func TestRenderRefuses(t *testing.T) {
	for _, tex := range []string{`\frac{a}{`, `x^{2`, `\begin{pmatrix} a & b`, `\undefinedcommand{x}`} {
		if _, err := Render(tex, false); !errors.Is(err, ErrFormula) {
			t.Errorf("Render(%q) = %v, want ErrFormula", tex, err)
		}
	}
	// Commands that need trust render as no link, class or style.
	for _, tex := range []string{`\href{javascript:alert(1)}{x}`, `\class{evil}{x}`, `\style{color:red}{x}`, `\includegraphics{http://evil.example/a.png}`} {
		ml, err := Render(tex, false)
		if err == nil && (strings.Contains(ml, "javascript:") || strings.Contains(ml, "evil") || strings.Contains(ml, "color:red")) {
			t.Errorf("Render(%q) let it through: %s", tex, ml)
		}
	}
}

func TestFind(t *testing.T) {
	type span struct {
		TeX     string
		Display bool
	}
	cases := []struct {
		text string
		want []span
	}{
		{"It costs $5 and $10.", nil},
		{"From $5-$10 a month, or US$ 3", nil},
		{`An escaped \$x\$ stays`, nil},
		{"so $x^2$ and $$y$$ and \\(z\\) and \\[w\\]", []span{{"x^2", false}, {"y", true}, {"z", false}, {"w", true}}},
		{"code `$HOME $PATH` then $a$", []span{{"a", false}}},
		{"```\nx = $y$\n```\nafter $b$", []span{{"b", false}}},
		{"still streaming $\\frac{QK^T}{", nil},
		{"$$\n\\sum_i p_i\n$$", []span{{`\sum_i p_i`, true}}},
	}
	for _, c := range cases {
		var got []span
		for _, s := range Find(c.text) {
			if c.text[s.Start:s.End] == "" {
				t.Errorf("%q: empty span", c.text)
			}
			got = append(got, span{s.TeX, s.Display})
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("Find(%q) (-want +got):\n%s", c.text, diff)
		}
	}
}

// TestTemmlIsTheWindowsVersion checks that the copy of temml.min.js is
// the one the window's package.json pins, so both render alike.
func TestTemmlIsTheWindowsVersion(t *testing.T) {
	pkg, err := os.ReadFile("../../frontend/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var p struct{ Dependencies map[string]string }
	if err := json.Unmarshal(pkg, &p); err != nil {
		t.Fatal(err)
	}
	version := p.Dependencies["temml"]
	if version == "" {
		t.Fatal("frontend/package.json does not depend on temml")
	}
	installed, err := os.ReadFile("../../frontend/node_modules/temml/dist/temml.min.js")
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("frontend/node_modules/temml is not installed (run make deps) to compare with temml %s", version)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(installed, []byte(temmlJS)) {
		t.Errorf("backend/mathml/temml.min.js differs from the installed temml %s: copy frontend/node_modules/temml/dist/temml.min.js here", version)
	}
	if !strings.Contains(temmlJS, `"`+version+`"`) {
		t.Errorf("temml.min.js does not carry version %s", version)
	}
}
