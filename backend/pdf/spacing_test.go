package pdf

import (
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/sharedtest"
)

func TestLetterSpaced(t *testing.T) {
	prose := strings.Repeat("The town of Sunderland is built upon the Permian limestone. ", 8)
	spaced := strings.Join(strings.Split(strings.ReplaceAll(prose, " ", ""), ""), " ")
	maths := strings.Repeat("Let x = a + b and y = c d for the source of n symbols. ", 8)
	for _, tc := range []struct {
		text          string
		spaced, wordy bool
	}{
		{prose, false, true},
		{spaced, true, false},
		{maths, false, true},
		{"a b c", false, false}, // too short to tell
		{strings.Repeat("Thetownofsunderlandisbuiltupon ", 20), false, false},
	} {
		if got := letterSpaced(tc.text); got != tc.spaced {
			t.Errorf("letterSpaced(%.40q) = %v", tc.text, got)
		}
		if got := wordy(tc.text); got != tc.wordy {
			t.Errorf("wordy(%.40q) = %v", tc.text, got)
		}
	}
}

// rawLetterSpaced counts the pages of path whose first reading (MuPDF
// inserting spaces at gaps) is letter-spaced, and those Page still
// returns so.
func rawLetterSpaced(t *testing.T, path string) (raw, after int, pages []Page) {
	t.Helper()
	d := openPath(t, path)
	defer d.Close()
	for n := 1; n <= d.NumPages(); n++ {
		js, bounds, err := stextJSON(d.fz, n-1, stextFlags, d.deadline)
		if err != nil {
			t.Fatal(err)
		}
		p0, _, err := layout(n, js, bounds)
		if err != nil {
			t.Fatal(err)
		}
		p, err := d.Page(n)
		if err != nil {
			t.Fatalf("%s page %d: %v", filepath.Base(path), n, err)
		}
		if letterSpaced(p0.Text) {
			raw++
		}
		if letterSpaced(p.Text) {
			after++
		}
		pages = append(pages, p)
	}
	return raw, after, pages
}

// TestLetterSpacedPages: the 1880s paper of MMLongBench-Doc's development
// half comes out of MuPDF letter-spaced on 15 of its 17 pages (the other two are scans); read again
// without inserted spaces, none is, and its author's name is a word. No
// page of the shared PDFs is letter-spaced (the second reading never
// runs on them).
func TestLetterSpacedPages(t *testing.T) {
	paper := sharedtest.Require(t, "mmlongbench_dev/documents/fd76bbefe469561966e5387aa709c482.pdf")
	raw, after, pages := rawLetterSpaced(t, paper)
	if raw != 15 || after != 0 || !strings.Contains(pages[0].Text, "LEBOUR") || !strings.Contains(pages[6].Text, "The fragments constituting the breccia") {
		t.Errorf("1880s paper: %d letter-spaced pages, %d after; page 1 %.200q", raw, after, pages[0].Text)
	}
	dir := sharedtest.Require(t, "pdfs")
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	for _, f := range files {
		if raw, _, _ := rawLetterSpaced(t, f); raw != 0 {
			t.Errorf("%s: %d letter-spaced pages", filepath.Base(f), raw)
		}
	}
}
