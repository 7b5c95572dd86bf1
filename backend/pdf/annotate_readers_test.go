package pdf

// The second and third readers of the write-back tests: poppler's
// pdftotext and pdf.js, each reading a copy back independently of MuPDF.

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// checkPdftotext reads the words under each highlight's boxes with
// poppler's pdftotext -bbox, a second reader of the copy. With loose, white
// space is not compared (poppler splits a superscript "∗" off its word,
// MuPDF does not).
func checkPdftotext(t *testing.T, data []byte, pages []int, boxes [][]Rect, want []string, loose ...bool) {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed: the second reader's check is skipped")
	}
	path := filepath.Join(t.TempDir(), "copy.pdf")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for i, n := range pages {
		html, err := exec.Command(bin, "-bbox", "-f", strconv.Itoa(n), "-l", strconv.Itoa(n), path, "-").Output()
		if err != nil {
			t.Fatalf("pdftotext: %v", err)
		}
		var words []string
		for _, w := range popplerWords(string(html)) {
			for _, b := range boxes[i] {
				if centredIn(w.box, b) {
					words = append(words, w.text)
					break
				}
			}
		}
		got, w := strings.Join(words, " "), want[i]
		if len(loose) > 0 && loose[0] {
			got, w = strings.Join(strings.Fields(got), ""), strings.Join(strings.Fields(w), "")
		}
		if got != w {
			t.Errorf("pdftotext under highlight %d: %q, want %q", i, got, want[i])
		}
	}
}

type popplerWord struct {
	box  Rect
	text string
}

// popplerWords parses pdftotext -bbox's <word xMin=.. yMin=.. xMax=..
// yMax=..>text</word> lines (page space, top-left origin, as MuPDF's).
func popplerWords(html string) []popplerWord {
	var out []popplerWord
	for _, line := range strings.Split(html, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "<word ") {
			continue
		}
		attr := func(name string) float64 {
			i := strings.Index(line, name+`="`)
			if i < 0 {
				return math.NaN()
			}
			rest := line[i+len(name)+2:]
			v, _ := strconv.ParseFloat(rest[:strings.IndexByte(rest, '"')], 64)
			return v
		}
		text := line[strings.IndexByte(line, '>')+1 : strings.LastIndex(line, "</word>")]
		text = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'").Replace(text)
		out = append(out, popplerWord{Rect{attr("xMin"), attr("yMin"), attr("xMax"), attr("yMax")}, text})
	}
	return out
}

// pdfjsAnnot is what testdata/annotations.mjs prints of one annotation.
type pdfjsAnnot struct {
	Page     int         `json:"page"`
	Subtype  string      `json:"subtype"`
	Rect     [4]float64  `json:"rect"`  // PDF space, bottom-left origin
	Quads    [][]float64 `json:"quads"` // each 8 numbers, PDF space
	Color    []int       `json:"color"` // 0..255
	Contents string      `json:"contents"`
	Height   float64     `json:"height"` // the page's height, to flip y
}

// checkPdfjs reads the copy's annotations with pdf.js (the frontend's
// pdfjs-dist, run by node), a third reader: subtypes, contents, colours
// and quadrilaterals.
func checkPdfjs(t *testing.T, data []byte, anns []Annotation) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: pdf.js cannot read the copy")
	}
	mod, err := filepath.Abs("../../frontend/node_modules/pdfjs-dist/legacy/build/pdf.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(mod); err != nil {
		t.Fatalf("pdfjs-dist is not installed (make deps, or npm ci in frontend/): %v", err)
	}
	cmd := exec.Command(node, "testdata/annotations.mjs", mod)
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var got []pdfjsAnnot
	if err := json.Unmarshal(outb, &got); err != nil {
		t.Fatalf("%v: %s", err, outb)
	}
	t.Logf("pdf.js: %s", outb)
	if len(got) != len(anns) {
		t.Fatalf("pdf.js reads %d annotations, want %d: %s", len(got), len(anns), outb)
	}
	for i, want := range anns {
		g := got[i]
		subtype := map[string]string{AnnotHighlight: "Highlight", AnnotNote: "Text"}[want.Kind]
		if g.Page != want.Page || g.Subtype != subtype || g.Contents != want.Text {
			t.Errorf("pdf.js annotation %d: page %d %s %q, want page %d %s %q", i, g.Page, g.Subtype, g.Contents, want.Page, subtype, want.Text)
		}
		if len(g.Color) != 3 || math.Abs(float64(g.Color[0])-255*want.Color[0]) > 1.5 ||
			math.Abs(float64(g.Color[1])-255*want.Color[1]) > 1.5 || math.Abs(float64(g.Color[2])-255*want.Color[2]) > 1.5 {
			t.Errorf("pdf.js annotation %d colour %v, want %v", i, g.Color, want.Color)
		}
		if want.Kind != AnnotHighlight {
			continue
		}
		if len(g.Quads) != len(want.Boxes) {
			t.Errorf("pdf.js annotation %d: %d quads, want %d", i, len(g.Quads), len(want.Boxes))
			continue
		}
		for k, q := range g.Quads {
			xs, ys := []float64{q[0], q[2], q[4], q[6]}, []float64{q[1], q[3], q[5], q[7]}
			box := Rect{slicesMin(xs), g.Height - slicesMax(ys), slicesMax(xs), g.Height - slicesMin(ys)}
			if !nearBox(box, want.Boxes[k], 0.5) {
				t.Errorf("pdf.js annotation %d quad %d = %v, want %v", i, k, box, want.Boxes[k])
			}
		}
	}
}

func slicesMin(v []float64) float64 {
	m := v[0]
	for _, x := range v {
		m = math.Min(m, x)
	}
	return m
}

func slicesMax(v []float64) float64 {
	m := v[0]
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}
