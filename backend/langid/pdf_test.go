package langid

import (
	"testing"

	fitz "github.com/gen2brain/go-fitz"

	"vika/backend/testpdf"
)

// pdfPages returns the text of every page of a real PDF from the shared
// data set, or skips the test when the data set is absent.
func pdfPages(t testing.TB, name string) []string {
	t.Helper()
	path := testpdf.SharedPDF(t, name)
	doc, err := fitz.New(path)
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	defer doc.Close()
	texts := make([]string, doc.NumPage())
	for i := range texts {
		if texts[i], err = doc.Text(i); err != nil {
			t.Fatalf("%s page %d: %v", name, i+1, err)
		}
	}
	return texts
}

func TestRealPDFs(t *testing.T) {
	tests := []struct {
		file  string
		pages []int // 1-based pages checked one by one
		want  string
		// minor is a language known to hold a small share of the document
		// (the English bibliography of the French thesis), or "".
		minor string
	}{
		{file: "jegou_statistique_inferentielle_slides_fr.pdf", pages: []int{3, 12, 40, 70}, want: "fr"},
		{file: "schutz2017_these_microbiote_mucoviscidose_fr.pdf", pages: []int{10, 20, 30, 45}, want: "fr", minor: "en"},
		{file: "devlin2019_bert.pdf", pages: []int{1, 4, 8, 12}, want: "en"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			texts := pdfPages(t, tt.file)
			for _, p := range tt.pages {
				if got := Detect(texts[p-1]); got.Lang != tt.want {
					t.Errorf("page %d: Detect = %+v, want %s", p, got, tt.want)
				}
			}
			pages := make([]PageLang, len(texts))
			for i, text := range texts {
				pages[i] = Page(text)
			}
			doc := Document(pages)
			if doc.Lang != tt.want || doc.Mixed || doc.Confidence < 0.8 {
				t.Errorf("Document = %+v, want %s, not mixed, confidence >= 0.8", doc, tt.want)
			}
			if tt.minor != "" && doc.Shares[tt.minor] == 0 {
				t.Errorf("Shares = %v, want some %s", doc.Shares, tt.minor)
			}
			t.Logf("%d pages: %+v", len(texts), doc)
		})
	}
}
