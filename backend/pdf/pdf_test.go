package pdf

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	fitz "github.com/gen2brain/go-fitz"
	"github.com/google/go-cmp/cmp"

	"vika/backend/corpus"
	"vika/backend/testpdf"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name     string
		data     []byte
		lim      Limits
		want     error
		contains string
	}{
		{"empty", nil, Limits{}, ErrEmpty, "empty file (0 bytes)"},
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), Limits{}, ErrNotPDF, "not a PDF: the file does not start with %PDF- (it looks like a PNG image)"},
		{"text", []byte("Lecture notes, chapter 1\nÉlèves et professeurs\n"), Limits{}, ErrNotPDF, "plain text file"},
		{"html", []byte("<!DOCTYPE html><html><body>Access denied</body></html>"), Limits{}, ErrNotPDF, "web page"},
		{"docx", []byte("PK\x03\x04\x14\x00\x06\x00"), Limits{}, ErrNotPDF, "ZIP archive"},
		{"binary", []byte{0x00, 0x01, 0x02, 0xfe}, Limits{}, ErrNotPDF, "does not start with %PDF-"},
		{"late header", []byte("garbage\n%PDF-1.4\n"), Limits{}, ErrNotPDF, "PDF header appears later"},
		{"too large", []byte("%PDF-1.4 0123456789"), Limits{MaxBytes: 10}, ErrTooLarge, "file too large: 19 bytes, the limit is 10 bytes"},
		{"ok", []byte("%PDF-1.4"), Limits{MaxBytes: 10}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.data, tt.lim)
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("Check = %v, want %v", err, tt.want)
			}
			if err != nil && !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("message %q does not contain %q", err, tt.contains)
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	tests := []struct {
		name     string
		data     []byte
		lim      Limits
		want     error
		contains string
	}{
		{"encrypted", testpdf.Encrypted("secret", "hidden words"), Limits{}, ErrEncrypted, "password"},
		{"zero pages", testpdf.ZeroPages(), Limits{}, ErrNoPages, "no pages"},
		{"negative count", testpdf.Raw("<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count -1 >>"), Limits{}, ErrCorrupt, "page tree"},
		{"header only", []byte("%PDF-1.7\n"), Limits{}, ErrCorrupt, "truncated"},
		{"garbage after header", []byte("%PDF-1.7\n" + strings.Repeat("\x00garbage", 50)), Limits{}, ErrCorrupt, "cannot"},
		{"too many pages", testpdf.Text("a", "b", "c"), Limits{MaxPages: 2}, ErrTooLarge, "3 pages, the limit is 2"},
		{"too many bytes", testpdf.Text("a"), Limits{MaxBytes: 100}, ErrTooLarge, "the limit is 100 bytes"},
		{"not a pdf", []byte("hello"), Limits{}, ErrNotPDF, "plain text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Open(tt.data, tt.lim)
			if err == nil {
				d.Close()
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Open = %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("message %q does not contain %q", err, tt.contains)
			}
		})
	}
}

// An owner password alone does not prevent reading: MuPDF opens the file.
func TestOpenOwnerPasswordOnly(t *testing.T) {
	d, err := Open(testpdf.Encrypted("", "readable despite protection"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if p, err := d.Page(1); err != nil || p.Text != "readable despite protection" {
		t.Fatalf("text = %q, err %v", p.Text, err)
	}
}

func TestOpenPages(t *testing.T) {
	data := testpdf.Pages(
		testpdf.Page{Heading: "1 Introduction", Body: "Élèves et café. The quick brown fox."},
		testpdf.Page{Body: "Second page about zebras."},
		testpdf.Page{},
	)
	d, err := Open(data, Limits{MaxBytes: 1 << 20, MaxPages: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.NumPages() != 3 {
		t.Fatalf("NumPages = %d", d.NumPages())
	}
	type summary struct {
		Number        int
		Text          string
		Width, Height float64
		Chars         int
		Type          corpus.PageType
		Complete      bool
	}
	var got []summary
	for i := 1; i <= 3; i++ {
		p, err := d.Page(i)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, summary{p.Number, p.Text, math.Round(p.Width), math.Round(p.Height), p.Class.Chars, p.Class.Type, p.Class.Complete})
		if want := Density(p.Class.Chars, p.Width*p.Height); p.Class.Density != want {
			t.Errorf("page %d density %v, want %v", i, p.Class.Density, want)
		}
	}
	want := []summary{
		{1, "1 Introduction\n\nÉlèves et café. The quick brown fox.", 595, 842, 43, corpus.PageText, true},
		{2, "Second page about zebras.", 595, 842, 22, corpus.PageText, true},
		{3, "", 595, 842, 0, corpus.PageText, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
	if _, err := d.Page(4); !errors.Is(err, ErrPage) {
		t.Errorf("Page(4) error = %v, want ErrPage", err)
	}
}

func TestPartlyBroken(t *testing.T) {
	d, err := Open(testpdf.PartlyBroken("first page survives", 2), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got, err := d.Page(1); err != nil || got.Text != "first page survives" {
		t.Fatalf("page 1 = %+v, %v", got, err)
	}
	for n := 2; n <= 3; n++ {
		_, err := d.Page(n)
		if !errors.Is(err, ErrPage) || !strings.Contains(err.Error(), fmt.Sprintf("page %d", n)) {
			t.Errorf("page %d error = %v", n, err)
		}
	}
}

// TestTruncated cuts a generated multi-page PDF at many points: each cut
// either opens (keeping only intact text) or fails with ErrCorrupt.
func TestTruncated(t *testing.T) {
	bodies := []string{"alpha " + testpdf.Words("a", 80), "bravo " + testpdf.Words("b", 80), "charlie " + testpdf.Words("c", 80)}
	full := testpdf.Text(bodies...)
	var opened, corrupt, kept int
	for cut := 8; cut < len(full); cut += len(full) / 97 {
		d, err := Open(full[:cut], Limits{})
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("cut at %d/%d: %v, want ErrCorrupt", cut, len(full), err)
			}
			corrupt++
			continue
		}
		opened++
		for n := 1; n <= d.NumPages(); n++ {
			p, err := d.Page(n)
			if err != nil {
				continue
			}
			if p.Text != "" && n <= len(bodies) && strings.ReplaceAll(p.Text, "\n", " ") == bodies[n-1] {
				kept++
			}
		}
		d.Close()
	}
	t.Logf("%d cuts opened (%d intact pages kept), %d ErrCorrupt", opened, kept, corrupt)
	if corrupt == 0 || kept == 0 {
		t.Errorf("expected both corrupt cuts and cuts keeping intact pages")
	}
}

func TestCleanText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\r\nb\rc", "a\nb\nc"},
		{"x\x00y\tz  \n\n", "xy z"},
		{"bad \xff byte", "bad byte"}, // invalid UTF-8 is unreadable: dropped
		{"\ufeffhi", "hi"},
		{"\ufb01nd the e\ufb00ect of o\ufb03ces", "find the effect of offices"},
		{"e\x1ecacit\u00e9 et con\x1cance", "efficacité et confiance"}, // TeX OT1 ligature codes
		{"\x1c alone", "alone"}, // not next to a letter: a control character
		{"a\u00a0\u2009b\t\tc", "a b c"},
		{"glyph\ufffd \ue000private", "glyph private"},
		{"para one.\n\n\n\npara two", "para one.\n\npara two"},
		{"representa-\ntion", "representation"},
		{"state-of-the-\nart", "state-of-the-art"},
		{"fine-tuning and fine-\ntuned", "fine-tuning and fine-tuned"},
		{"fine-\ntuning", "finetuning"},
		{"well-known", "well-known"},
		{"1985 -\n1990", "1985 -\n1990"},
		{"Smith-\nJones", "Smith-\nJones"}, // upper case: not a continuation
		{"soft\u00ad\nhyphen", "softhyphen"},
		{"the end of the column\n\ncontinues here.\n\nNew paragraph.", "the end of the column\ncontinues here.\n\nNew paragraph."},
	}
	for _, tt := range tests {
		if got := CleanText(tt.in); got != tt.want {
			t.Errorf("CleanText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestHandles fails if a go-fitz upgrade changes the Document layout that
// the fz_try guards rely on.
func TestHandles(t *testing.T) {
	fz, err := fitz.NewFromMemory(testpdf.Text("x"))
	if err != nil {
		t.Fatal(err)
	}
	defer fz.Close()
	if _, _, ok := handles(fz); !ok {
		t.Fatal("cannot reach the MuPDF handles of go-fitz's Document")
	}
	if n := countPages(fz); n != 1 {
		t.Fatalf("countPages = %d", n)
	}
}

// One Document per goroutine is safe; run with -race.
func TestConcurrentDocuments(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			want := fmt.Sprintf("document %d", i)
			d, err := Open(testpdf.Text(want, want), Limits{})
			if err != nil {
				t.Error(err)
				return
			}
			defer d.Close()
			for n := 1; n <= 2; n++ {
				if p, err := d.Page(n); err != nil || p.Text != want {
					t.Errorf("doc %d page %d = %q, %v", i, n, p.Text, err)
				}
			}
		}()
	}
	wg.Wait()
}

func TestRealPaper(t *testing.T) {
	path := testpdf.SharedPDF(t, "devlin2019_bert.pdf")
	d := openPath(t, path)
	defer d.Close()
	if d.NumPages() < 10 {
		t.Fatalf("NumPages = %d", d.NumPages())
	}
	p, err := d.Page(1)
	if err != nil || !strings.Contains(p.Text, "BERT") || p.Width < 500 {
		t.Fatalf("page 1: err=%v size=%vx%v text=%.80q", err, p.Width, p.Height, p.Text)
	}
}
