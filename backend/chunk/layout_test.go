package chunk

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/corpus"
)

// ln is one line of a synthetic page: its text, font size, boldness and
// top (points); lines with the same block number form a block.
type ln struct {
	text  string
	size  float64
	bold  bool
	y     float64
	block int
}

// layoutPage builds a page as package pdf would: lines joined by "\n"
// within a block, blocks by "\n\n", each line's offsets and box set.
func layoutPage(n int, h float64, lines ...ln) corpus.Page {
	p := corpus.Page{DocID: doc.ID, Number: n, Type: corpus.PageText, Width: 595, Height: h}
	var b strings.Builder
	pos := 0
	for i, l := range lines {
		if i > 0 {
			sep := "\n"
			if l.block != lines[i-1].block {
				sep = "\n\n"
			}
			b.WriteString(sep)
			pos += len(sep)
		}
		r := len([]rune(l.text))
		p.Lines = append(p.Lines, corpus.Line{Start: pos, End: pos + r, BBox: [4]float64{72, l.y, 72 + 5*float64(r), l.y + l.size*1.2}, Size: l.size, Bold: l.bold, Block: l.block})
		b.WriteString(l.text)
		pos += r
	}
	p.Text = b.String()
	return p
}

// notes is a small typeset course: a running header with the printed
// page number (page index + 4) on every page, a footer, bold headings, a
// bibliography, then an appendix.
func notes() []corpus.Page {
	header := func(n int) ln { return ln{fmt.Sprintf("Lecture Notes on Sampling %d", n+4), 9, false, 30, 0} }
	footer := ln{"University of Nowhere, 2024", 9, false, 800, 99}
	body := func(s string, y float64, block int) ln { return ln{s, 10, false, y, block} }
	return []corpus.Page{
		layoutPage(1, 842, header(1),
			ln{"Sampling Theory", 16, true, 80, 1},
			ln{"1 Introduction", 12, true, 120, 2},
			body("Sampling is old. Surveys used it in 1936 and went wrong because the sample was not random.", 140, 3),
			body("A random sample gives every member of the population the same chance of being drawn.", 152, 3),
			ln{"Figure 1: a sample drawn from an urn.", 9, true, 300, 4},
			footer),
		layoutPage(2, 842, header(2),
			ln{"2 Estimators", 12, true, 80, 1},
			body("An estimator is a function of the sample. The mean of the sample estimates the mean of the population.", 100, 2),
			ln{"n", 7, false, 790, 3}, // a formula's index that happens to sit low
			footer),
		layoutPage(3, 842, header(3),
			ln{"References", 12, true, 80, 1},
			body("[1] J. Smith. Sampling the electorate. Journal of Polls, 1936.", 100, 2),
			body("[2] A. Martin. Notes on sampling. 2024.", 112, 2),
			footer),
		layoutPage(4, 842, header(4),
			ln{"A Proofs", 12, true, 80, 1},
			body("The variance of the mean is sigma squared over n, which proves the claim of section 2.", 100, 2),
			footer),
	}
}

func TestSplitLayoutGolden(t *testing.T) {
	pages := notes()
	got := Split(doc, pages, Options{Target: 120, Overlap: 30})
	golden(t, filepath.Join("testdata", "split-layout.golden.json"), got)
	for _, c := range got {
		for _, furniture := range []string{"Lecture Notes", "University of Nowhere"} {
			if strings.Contains(c.Text, furniture) {
				t.Errorf("%s: running header or footer in chunk text: %q", c.ID, c.Text)
			}
		}
	}
	want := []string{"1 Introduction/body", "1 Introduction/body", "1 Introduction/body", "2 Estimators/body", "References/references", "A Proofs/body"}
	var sections []string
	for _, c := range got {
		sections = append(sections, c.SectionTitle+"/"+string(c.Kind))
	}
	if diff := cmp.Diff(want, sections); diff != "" {
		t.Errorf("sections (-want +got):\n%s", diff)
	}
}

func TestRoles(t *testing.T) {
	nav := ln{"Introduction Model Estimators Intervals", 6, false, 5, 0}
	var pages []corpus.Page
	for n := 1; n <= 6; n++ {
		pages = append(pages, layoutPage(n, 272, nav,
			ln{[]string{"Bias", "Variance", "Risk", "Consistency", "Efficiency", "Sufficiency"}[n-1], 14, false, 40, 1},
			ln{"DRAFT", 10, false, 130, 2},
			ln{"Some content about the topic of slide " + fmt.Sprint(n), 11, false, 150, 3},
			ln{"i=1", 8, false, 250, 4},
			ln{fmt.Sprint(n), 8, false, 262, 5}))
	}
	views, _, _ := newViews(pages)
	var got []role
	got = append(got, views[2].roles...)
	want := []role{roleFurniture, roleBody, roleFurniture, roleBody, roleBody, rolePageNumber}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("roles of page 3 (-want +got):\n%s", diff)
	}
}

// An IEEE paper sets its table captions, "TABLE I" to "TABLE IV", at
// the top of their pages. With the roman numbers dropped as page numbers
// they would read as one running header "table" on four pages, and
// "According to table II" would find no page holding its words.
func TestCaptionsAtThePageTopAreNotFurniture(t *testing.T) {
	header := ln{"IEEE TRANSACTIONS ON RETRIEVAL", 8, false, 20, 0}
	var pages []corpus.Page
	titles := []string{"SUMMARY OF METHODS", "DOWNSTREAM TASKS", "METRICS", "BENCHMARKS"}
	for n, numeral := range []string{"I", "II", "III", "IV"} {
		pages = append(pages, layoutPage(n+1, 842, header,
			ln{"TABLE " + numeral, 8, false, 50, 1},
			ln{titles[n], 8, false, 60, 1},
			ln{"Method Dataset Score " + titles[n], 8, false, 200, 2}))
	}
	views, _, _ := newViews(pages)
	want := []role{roleFurniture, roleBody, roleBody, roleBody}
	if diff := cmp.Diff(want, views[1].roles); diff != "" {
		t.Errorf("roles of page 2 (-want +got):\n%s", diff)
	}
	got := Split(doc, pages, Options{Target: 120, Overlap: 30})
	if len(got) == 0 || !strings.HasPrefix(got[1].Text, "TABLE II") {
		t.Errorf("page 2's passage does not open with its caption: %+v", got)
	}
}

func TestOverlays(t *testing.T) {
	title := ln{"Bias and variance", 14, true, 40, 1}
	item := func(k int) ln {
		return ln{fmt.Sprintf("Item %d: the estimator's error splits into bias and variance, part %d.", k, k), 11, false, 60 + 15*float64(k), 2}
	}
	pages := []corpus.Page{
		layoutPage(1, 272, title, item(1)),
		layoutPage(2, 272, title, item(1), item(2)),
		layoutPage(3, 272, title, item(1), item(2), item(3)),
		layoutPage(4, 272, ln{"Another slide", 14, true, 40, 1}, ln{"With other words entirely, about confidence intervals.", 11, false, 60, 2}),
	}
	got := Split(doc, pages, Options{})
	type summary struct {
		Page  int
		Pages []int
	}
	var sum []summary
	for _, c := range got {
		sum = append(sum, summary{c.Page, c.Pages})
	}
	want := []summary{{3, []int{1, 2, 3}}, {4, nil}}
	if diff := cmp.Diff(want, sum); diff != "" {
		t.Errorf("chunks (-want +got):\n%s", diff)
	}
	if !strings.Contains(got[0].Text, "part 3.") || got[0].SectionTitle != "Bias and variance" {
		t.Errorf("the fullest overlay should be chunked: %+v", got[0])
	}
}

func TestKindOf(t *testing.T) {
	tests := map[string]corpus.ChunkKind{
		"References": corpus.ChunkReferences, "7 Bibliography": corpus.ChunkReferences, "Bibliographie": corpus.ChunkReferences,
		"Références bibliographiques": corpus.ChunkReferences, "Table des matières": corpus.ChunkFront, "Acknowledgments": corpus.ChunkFront,
		"Remerciements": corpus.ChunkFront, "List of Figures": corpus.ChunkFront, "2 Related Work": corpus.ChunkBody,
		"References to prior work": corpus.ChunkBody,
	}
	for title, want := range tests {
		if got := kindOf(title); got != want {
			t.Errorf("kindOf(%q) = %s, want %s", title, got, want)
		}
	}
}

func TestLooksLikeTitle(t *testing.T) {
	tests := map[string]bool{
		"2.1 Pre-training BERT": true, "Big Picture": true, "A Additional Details for BERT": true, "Loi du χ2": true,
		"Part I": true, "fun take (n, s) =": false, "$Cons (1, $Nil)": false, "Figure 2: the model": false,
		"C W log": false, "H = log p": false, "12": false, "We show that the estimator is unbiased in all cases.": false,
		"3.5 is the answer": false,
	}
	for title, want := range tests {
		if got := looksLikeTitle(title); got != want {
			t.Errorf("looksLikeTitle(%q) = %v, want %v", title, got, want)
		}
	}
}

func TestTOCLike(t *testing.T) {
	var toc, title []ln
	for i := 0; i < 10; i++ {
		toc = append(toc, ln{fmt.Sprintf("%d Chapter title number %d .......... %d", i+1, i+1, 3+4*i), 10, false, 80 + 14*float64(i), i})
		title = append(title, ln{fmt.Sprintf("Born on 18 May %d", 1980+i), 10, false, 80 + 14*float64(i), i})
	}
	pages := []corpus.Page{layoutPage(1, 842, toc...), layoutPage(2, 842, title...)}
	views, _, _ := newViews(pages)
	if !views[0].toc || views[1].toc {
		t.Errorf("toc = %v, %v; want true, false", views[0].toc, views[1].toc)
	}
}
