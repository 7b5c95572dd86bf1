package chunk

import (
	"os"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/pdf"
	"vika/backend/testpdf"
)

// sharedPages extracts a real PDF from ../shared/data/pdfs (the test is
// skipped when it is absent).
func sharedPages(t *testing.T, name string) []corpus.Page {
	t.Helper()
	data, err := os.ReadFile(testpdf.SharedPDF(t, name))
	if err != nil {
		t.Fatal(err)
	}
	d, err := pdf.Open(data, pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var pages []corpus.Page
	for n := 1; n <= d.NumPages(); n++ {
		p, err := d.Page(n)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, p.Corpus(doc.ID))
	}
	return pages
}

// TestSharedSlides chunks the two beamer decks. Measured before this
// chunker (plain text, no overlay or furniture handling): 782 chunks for
// the 561-page deck, 87 for the 85-page one.
func TestSharedSlides(t *testing.T) {
	for _, tc := range []struct {
		file      string
		maxChunks int
		nav       string // repeated header text that must not reach chunks
	}{
		{"rouviere2019_intro_statistical_learning_slides.pdf", 500, ""},
		{"jegou_statistique_inferentielle_slides_fr.pdf", 85, "Modèle Statistique Estimateurs"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			pages := sharedPages(t, tc.file)
			chunks := Split(doc, pages, Options{})
			checkLayoutInvariants(t, pages, chunks)
			stood, grouped := map[int]bool{}, 0
			for _, c := range chunks {
				stood[c.Page] = true
				for _, p := range c.Pages {
					stood[p] = true
				}
				if len(c.Pages) > 0 {
					grouped++
				}
				if tc.nav != "" && strings.Contains(c.Text, tc.nav) {
					t.Fatalf("%s: navigation bar in chunk text: %q", c.ID, c.Text)
				}
			}
			for _, p := range pages {
				if strings.TrimSpace(p.Text) != "" && !stood[p.Number] {
					t.Errorf("page %d is in no chunk, directly or as an overlay", p.Number)
				}
			}
			t.Logf("%s: %d pages, %d chunks (%d standing for overlay groups)", tc.file, len(pages), len(chunks), grouped)
			if len(chunks) > tc.maxChunks {
				t.Errorf("%d chunks, want at most %d", len(chunks), tc.maxChunks)
			}
		})
	}
}

// checkLayoutInvariants verifies chunks of pages with a layout: offsets
// in range, unique ids, text from the page.
func checkLayoutInvariants(t *testing.T, pages []corpus.Page, chunks []corpus.Chunk) {
	t.Helper()
	byPage := map[int][]rune{}
	for _, p := range pages {
		byPage[p.Number] = []rune(p.Text)
	}
	ids := map[string]bool{}
	for _, c := range chunks {
		r := byPage[c.Page]
		if ids[c.ID] || c.CharStart < 0 || c.CharEnd > len(r) || c.CharStart >= c.CharEnd {
			t.Fatalf("%s: duplicate or bad offsets [%d,%d) on a page of %d runes", c.ID, c.CharStart, c.CharEnd, len(r))
		}
		ids[c.ID] = true
		if got := Clean(r[c.CharStart:c.CharEnd]); got != c.Text {
			t.Fatalf("%s: Text != Clean(page[start:end])", c.ID)
		}
	}
}

func TestSharedPaper(t *testing.T) {
	pages := sharedPages(t, "devlin2019_bert.pdf")
	chunks := Split(doc, pages, Options{})
	checkLayoutInvariants(t, pages, chunks)
	kinds := map[string]corpus.ChunkKind{}
	for _, c := range chunks {
		kinds[c.SectionTitle] = c.Kind
		if strings.HasPrefix(c.Text, "1\n") || strings.HasSuffix(c.Text, "\n12") {
			t.Errorf("%s: page number in text: %q", c.ID, c.Text)
		}
	}
	want := map[string]corpus.ChunkKind{
		"Abstract": corpus.ChunkBody, "1 Introduction": corpus.ChunkBody, "3.1 Pre-training BERT": corpus.ChunkBody,
		"References": corpus.ChunkReferences, "A.2 Pre-training Procedure": corpus.ChunkBody,
	}
	for title, kind := range want {
		if got, ok := kinds[title]; !ok || got != kind {
			t.Errorf("section %q: kind %q (present %v), want %q", title, got, ok, kind)
		}
	}
}
