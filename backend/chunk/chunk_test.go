package chunk

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"vika/backend/corpus"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

var doc = corpus.Document{ID: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", File: "notes.pdf"}

// samplePages is hand-written text without layout, shaped like OCR
// output cleaned by pdf.CleanText: lines wrapped, paragraphs separated by
// blank lines, a heading whose number sits on its own line, a compound
// kept across a line break, a bibliography.
func samplePages() []corpus.Page {
	return []corpus.Page{
		{DocID: doc.ID, Number: 1, Type: corpus.PageText, Text: "Lecture Notes on Sampling\nA. Martin\n\nAbstract\n\nWe study how a sample represents a population. The mean of the sample is an estimator of the mean of the population, e.g. the average height of students.\n\n1\nIntroduction\n\nSampling is old. Surveys by J. Smith used it in 1936. They went wrong because\nthe sample was not random. A random sample gives every member the same chance.\nWe define the sampling error as the difference between the estimate and the truth. It shrinks as the sample grows."},
		{DocID: doc.ID, Number: 2, Type: corpus.PageText, Text: "   \n\n  "},
		{DocID: doc.ID, Number: 3, Type: corpus.PageScanned, Text: "continued from the previous page, the variance of the mean is sigma squared over n (see Fig. 2). Therefore doubling precision needs four times the data. The fine-\ntuned model and the fine-tuned baseline agree.\n\n2.1 Confidence Intervals\n\nAn interval built from the sample contains the true mean in 95% of samples. Its width depends on n.\n\n" + strings.Repeat("x", 130)},
		{DocID: doc.ID, Number: 4, Type: corpus.PageText, Text: "Short last page.\n\n3 Methods\n\n3.1 Setup\n\nWe draw samples.\n\nReferences\n\n[1] J. Smith. Sampling the electorate. Journal of Polls, 1936.\n[2] A. Martin. Notes on sampling. 2024."},
	}
}

func TestSplitGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"small", Options{Target: 120, Overlap: 30}},
		{"default", Options{}},
		{"no-overlap", Options{Target: 120, Overlap: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Split(doc, samplePages(), tc.opts)
			checkInvariants(t, samplePages(), got, tc.opts.normalized())
			golden(t, filepath.Join("testdata", "split-"+tc.name+".golden.json"), got)
		})
	}
}

func golden(t *testing.T, path string, got []corpus.Chunk) {
	t.Helper()
	if *update {
		b, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	var want []corpus.Chunk
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("chunks differ from %s (-want +got; go test -update to accept):\n%s", path, diff)
	}
}

// checkInvariants verifies what every chunking must satisfy.
func checkInvariants(t *testing.T, pages []corpus.Page, chunks []corpus.Chunk, opts Options) {
	t.Helper()
	byPage := map[int][]rune{}
	for _, p := range pages {
		byPage[p.Number] = []rune(p.Text)
	}
	covered := map[int][]bool{}
	ids := map[string]bool{}
	for _, c := range chunks {
		if ids[c.ID] {
			t.Errorf("duplicate id %s", c.ID)
		}
		ids[c.ID] = true
		r := byPage[c.Page]
		if c.CharStart < 0 || c.CharEnd > len(r) || c.CharStart >= c.CharEnd {
			t.Fatalf("%s: bad offsets [%d,%d) on a page of %d runes", c.ID, c.CharStart, c.CharEnd, len(r))
		}
		if got := Clean(r[c.CharStart:c.CharEnd]); got != c.Text {
			t.Errorf("%s: Text %q != clean(page[start:end]) %q", c.ID, c.Text, got)
		}
		if n := c.CharEnd - c.CharStart; n > opts.Target+opts.Target/4 {
			t.Errorf("%s: %d runes, longer than target %d + 25%%", c.ID, n, opts.Target)
		}
		if c.Text != strings.TrimSpace(c.Text) || c.Text == "" {
			t.Errorf("%s: untrimmed or empty text %q", c.ID, c.Text)
		}
		if covered[c.Page] == nil {
			covered[c.Page] = make([]bool, len(r))
		}
		for i := c.CharStart; i < c.CharEnd; i++ {
			covered[c.Page][i] = true
		}
	}
	for n, r := range byPage {
		for i, c := range r {
			if !unicode.IsSpace(c) && (covered[n] == nil || !covered[n][i]) {
				t.Errorf("page %d: rune %d (%q) is in no chunk", n, i, c)
				break
			}
		}
	}
}

func TestSplitLongText(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 400; i++ {
		b.WriteString("The estimator is unbiased when its expectation equals the parameter. ")
		if i%7 == 6 {
			b.WriteString("\n\n")
		}
	}
	pages := []corpus.Page{{Number: 1, Text: b.String()}, {Number: 2, Text: strings.Repeat("é", 5000)}}
	for _, opts := range []Options{{}, {Target: 300, Overlap: 100}, {Target: 50, Overlap: 500}, {Target: 1}} {
		chunks := Split(doc, pages, opts)
		checkInvariants(t, pages, chunks, opts.normalized())
		for i := 1; i < len(chunks); i++ {
			a, c := chunks[i-1], chunks[i]
			if a.Page == c.Page && c.CharStart <= a.CharStart {
				t.Fatalf("no progress: %+v then %+v", a, c)
			}
		}
	}
}

func TestSplitEmpty(t *testing.T) {
	if got := Split(doc, []corpus.Page{{Number: 1}, {Number: 2, Text: "\n \n"}}, Options{}); len(got) != 0 {
		t.Fatalf("got %d chunks from empty pages", len(got))
	}
}

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  a  b\n c ", "a b c"},
		{"para one.\n\n\npara two", "para one.\npara two"},
		{"fine-\ntuned", "fine- tuned"}, // hyphenation is package pdf's job
		{"well-known", "well-known"},
	}
	for _, tt := range tests {
		if got := Clean([]rune(tt.in)); got != tt.want {
			t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHeadings(t *testing.T) {
	page := "Title of the Paper\n\nAbstract\n\nText. More text.\n\n1\nIntroduction\n\nBody.\n\n3.2 Model Architecture\n\n12\n\n4 The model is trained for three days on sixteen chips.\n\n2019 Proceedings of NAACL\n\nIV. Results and Discussion"
	var got []string
	for _, h := range headings([]rune(page)) {
		got = append(got, h.title)
	}
	want := []string{"Abstract", "1 Introduction", "3.2 Model Architecture", "IV. Results and Discussion"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("headings (-want +got):\n%s", diff)
	}
}
