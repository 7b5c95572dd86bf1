package pdf

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/sharedtest"
)

// classTally counts page types and OCR calls of one document under the
// baseline (the text-density rule) and the refined rules.
type classTally struct {
	base, refined           map[corpus.PageType]int
	baseCalls, refinedCalls int
}

func tally(t *testing.T, path string) classTally {
	t.Helper()
	d := openPath(t, path)
	defer d.Close()
	c := classTally{base: map[corpus.PageType]int{}, refined: map[corpus.PageType]int{}}
	for n := 1; n <= d.NumPages(); n++ {
		p, err := d.Page(n)
		if err != nil {
			t.Fatalf("%s page %d: %v", filepath.Base(path), n, err)
		}
		c.base[p.Class.Baseline]++
		c.refined[p.Class.Type]++
		c.refinedCalls += p.OCRCalls()
		switch p.Class.Baseline { // the original design OCRs every image of a mixed page
		case corpus.PageScanned:
			c.baseCalls++
		case corpus.PageMixed:
			c.baseCalls += rawImages(p)
		}
	}
	return c
}

// rawImages counts the images of p as the baseline sees them.
func rawImages(p Page) int { return p.rawImages }

func (c classTally) String() string {
	f := func(m map[corpus.PageType]int) string {
		return fmt.Sprintf("%3d %3d %3d %3d", m[corpus.PageText], m[corpus.PageIllustrative], m[corpus.PageMixed], m[corpus.PageScanned])
	}
	return fmt.Sprintf("%s %5d | %s %4d", f(c.base), c.baseCalls, f(c.refined), c.refinedCalls)
}

// TestClassifyShared classifies every shared PDF with both rules and logs
// the table (go test -run TestClassifyShared -v ./backend/pdf/).
func TestClassifyShared(t *testing.T) {
	dir := sharedtest.Require(t, "pdfs") // every listed file, or skip (fail under make test)
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	var b strings.Builder
	b.WriteString("\nfile                                        baseline: txt ill mix scn calls | refined: txt ill mix scn calls\n")
	got := map[string]classTally{}
	for _, f := range files {
		c := tally(t, f)
		got[filepath.Base(f)] = c
		fmt.Fprintf(&b, "%-44.44s %s\n", filepath.Base(f), c)
	}
	t.Log(b.String())
	checks := []struct {
		file string
		ok   func(c classTally) bool
		what string
	}{
		{"okasaki1996_purely_functional_data_structures_thesis.pdf", func(c classTally) bool { return c.base[corpus.PageMixed] > 100 && c.refinedCalls <= 2 },
			"the thesis's rules drawn as 1x1-pixel images send 100+ pages to OCR with the baseline, (nearly) none refined"},
		{"flajolet_martin1985_probabilistic_counting_SCANNED.pdf", func(c classTally) bool { return c.refined[corpus.PageScanned] == 28 }, "every page of a real scan is scanned"},
		{"schutz2017_these_p20-22_SCANNED_MADE_fr.pdf", func(c classTally) bool { return c.refined[corpus.PageScanned] == 3 }, "every page of a made-up scan is scanned"},
		{"schutz2017_these_microbiote_mucoviscidose_fr.pdf", func(c classTally) bool {
			return c.refined[corpus.PageMixed] >= 20 && c.refined[corpus.PageIllustrative] >= 2 && c.refinedCalls < 50
		}, "figures holding text are mixed (their regions OCRed), a photo and a QR code illustrative, dotted leaders ignored"},
		{"jegou_statistique_inferentielle_slides_fr.pdf", func(c classTally) bool { return c.refinedCalls == 0 }, "the beamer header bar under text needs no OCR"},
		{"he2015_resnet.pdf", func(c classTally) bool { return c.refined[corpus.PageText] == 12 }, "a born-digital paper with vector figures is text"},
	}
	for _, ck := range checks {
		c, ok := got[ck.file]
		switch {
		case !ok:
			t.Errorf("%s was not classified (not in %s): its check cannot run", ck.file, dir)
		case !ck.ok(c):
			t.Errorf("%s: %s; got %s", ck.file, ck.what, c)
		}
	}
}
