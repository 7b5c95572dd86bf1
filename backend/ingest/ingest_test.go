package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/pdf"
	"vika/backend/testpdf"
)

func TestRun(t *testing.T) {
	data := testpdf.Pages(
		testpdf.Page{Heading: "1 Introduction", Body: "Sampling theory studies estimators."},
		testpdf.Page{Body: "Zebras are striped."},
		testpdf.Page{},
	)
	var got []Progress
	res, err := Run(context.Background(), "cours.pdf", data, Options{}, func(p Progress) { got = append(got, p) })
	if err != nil {
		t.Fatal(err)
	}
	want := []Progress{
		{StageValidating, 0, 0}, {StageExtracting, 0, 3}, {StageExtracting, 1, 3},
		{StageExtracting, 2, 3}, {StageExtracting, 3, 3}, {StageLanguage, 0, 0}, {StageChunking, 0, 0},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	sum := sha256.Sum256(data)
	// The pages are too short for a language to be told; the file's
	// information is fpdf's (no outline).
	wantDoc := corpus.Document{ID: hex.EncodeToString(sum[:]), File: "cours.pdf", Label: "cours.pdf", Bytes: int64(len(data)), Pages: 3, Chunks: 2,
		Meta:      corpus.Meta{Producer: "FPDF 1.7", Created: "2024-01-02", Modified: "2024-01-02"},
		PageTypes: map[corpus.PageType]int{corpus.PageText: 3}, LangShares: map[string]float64{}}
	if diff := cmp.Diff(wantDoc, res.Doc); diff != "" {
		t.Errorf("doc (-want +got):\n%s", diff)
	}
	if len(res.Pages) != 3 || res.Pages[1].Text != "Zebras are striped." || res.Pages[1].DocID != wantDoc.ID {
		t.Errorf("pages = %+v", res.Pages)
	}
	var pagesOfChunks []int
	for _, c := range res.Chunks {
		pagesOfChunks = append(pagesOfChunks, c.Page)
	}
	if !cmp.Equal([]int{1, 2}, pagesOfChunks) || res.Chunks[0].SectionTitle != "1 Introduction" {
		t.Errorf("chunks = %+v", res.Chunks)
	}
}

func TestRunErrors(t *testing.T) {
	unreadable := testpdf.Raw("<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [2 0 R] /Count 2 >>")
	tests := []struct {
		name string
		data []byte
		opts Options
		want error
	}{
		{"empty", nil, Options{}, pdf.ErrEmpty},
		{"png", []byte("\x89PNG\r\n\x1a\nxxxxxxxx"), Options{}, pdf.ErrNotPDF},
		{"encrypted", testpdf.Encrypted("pw", "secret"), Options{}, pdf.ErrEncrypted},
		{"no pages", testpdf.ZeroPages(), Options{}, pdf.ErrNoPages},
		{"all pages unreadable", unreadable, Options{}, pdf.ErrCorrupt},
		{"too many pages", testpdf.Text("a", "b"), Options{Limits: pdf.Limits{MaxPages: 1}}, pdf.ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Run(context.Background(), "x.pdf", tt.data, tt.opts, nil)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Run = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestRunKeepsReadablePages(t *testing.T) {
	res, err := Run(context.Background(), "broken.pdf", testpdf.PartlyBroken("the readable part", 2), Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal([]int{2, 3}, res.Doc.FailedPages) || res.Doc.Chunks != 1 || res.Pages[2].Problem == nil ||
		!strings.Contains(res.Pages[2].Problem.English(), "page 3") {
		t.Errorf("doc = %+v, page 3 problem %+v", res.Doc, res.Pages[2].Problem)
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pages := 0
	_, err := Run(ctx, "long.pdf", testpdf.Text("one", "two", "three", "four"), Options{}, func(p Progress) {
		if p.Stage == StageExtracting && p.Done == 1 {
			cancel()
		}
		if p.Stage == StageExtracting && p.Done > 0 {
			pages++
		}
	})
	if !errors.Is(err, context.Canceled) || pages != 1 {
		t.Fatalf("Run = %v after %d pages, want context.Canceled after 1", err, pages)
	}
}

func TestRunRealPaper(t *testing.T) {
	data, err := os.ReadFile(testpdf.SharedPDF(t, "devlin2019_bert.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := Run(context.Background(), "devlin2019_bert.pdf", data, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("BERT: %d pages, %d chunks, %d failed pages, in %v", res.Doc.Pages, res.Doc.Chunks, len(res.Doc.FailedPages), time.Since(start))
	if res.Doc.Pages != 16 || res.Doc.Chunks < 50 || len(res.Doc.FailedPages) != 0 {
		t.Errorf("doc = %+v", res.Doc)
	}
	sections := map[string]bool{}
	for _, c := range res.Chunks {
		sections[c.SectionTitle] = true
	}
	if !sections["1 Introduction"] || !sections["Abstract"] {
		t.Errorf("sections found: %v", sections)
	}
}

// TestTruncatedKeepsReadablePages cuts a document at several points: each
// cut either fails as corrupt or is added with a warning, its blank pages
// reported as failed rather than silently empty; at least one cut must be
// added with a page whose text is read back whole (a suite where every cut
// is rejected proves nothing about keeping readable pages).
func TestTruncatedKeepsReadablePages(t *testing.T) {
	texts := []string{"Alpha page about sampling.", "Beta page about estimators.", "Gamma page about tests."}
	data := testpdf.Text(texts...)
	added, readable := 0, 0
	for _, frac := range []float64{0.3, 0.5, 0.7, 0.9} {
		cut := data[:int(float64(len(data))*frac)]
		res, err := Run(context.Background(), "cut.pdf", cut, Options{}, nil)
		if err != nil {
			if !errors.Is(err, pdf.ErrCorrupt) {
				t.Errorf("cut at %.0f%%: error %v, want ErrCorrupt", frac*100, err)
			}
			continue
		}
		added++
		if res.Doc.Warning == nil || res.Doc.Warning.Code != message.Truncated {
			t.Errorf("cut at %.0f%%: added without a warning", frac*100)
		}
		for _, p := range res.Pages {
			if strings.TrimSpace(p.Text) == "" && !p.Failed() {
				t.Errorf("cut at %.0f%%: page %d is empty but not reported", frac*100, p.Number)
			}
			if p.Number >= 1 && p.Number <= len(texts) && strings.Contains(p.Text, texts[p.Number-1]) {
				readable++
			}
		}
	}
	t.Logf("%d of 4 cuts were added with a warning, %d pages read back whole", added, readable)
	if added == 0 || readable == 0 {
		t.Errorf("%d cuts added, %d pages read back: a truncated file whose pages can partly be read must be added with them", added, readable)
	}
}
