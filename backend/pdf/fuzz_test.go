package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"vika/backend/testpdf"
)

// fuzzLimits keeps one input's work small: the fuzzer runs thousands.
var fuzzLimits = Limits{MaxBytes: 1 << 20, MaxPages: 8}

// fuzzPageTime is each page's MuPDF budget: the worker's mechanism, with a
// budget small enough for the fuzzer to run many inputs.
const fuzzPageTime = 250 * time.Millisecond

// fuzzDeadline is how long one input may take before the target counts it
// as a hang (a panic from the watchdog goroutine crashes the fuzz worker,
// which makes the fuzzer keep the input as a crasher).
const fuzzDeadline = 30 * time.Second

// openErrors are the errors Open may return; Page and Render return ErrPage.
var openErrors = []error{ErrEmpty, ErrNotPDF, ErrEncrypted, ErrCorrupt, ErrNoPages, ErrTooLarge}

// FuzzOpen feeds arbitrary bytes to the intake: Open, every Page, a
// low-resolution Render of the first page, Close, each page within the
// worker's budget (fuzzPageTime). It must never panic,
// abort (MuPDF terminates the process on an exception thrown outside
// fz_try) or hang, and every error must wrap one of the package's
// sentinels. Run it with
//
//	go test -run '^$' -fuzz FuzzOpen -fuzztime 3m ./backend/pdf/
func FuzzOpen(f *testing.F) {
	for _, seed := range fuzzSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		watchdog := time.AfterFunc(fuzzDeadline, func() {
			panic(fmt.Sprintf("pdf: an input of %d bytes took more than %s (hang)", len(data), fuzzDeadline))
		})
		defer watchdog.Stop()
		openAll(t, data)
	})
}

// openAll runs the intake on data and checks the errors it returns.
func openAll(t *testing.T, data []byte) {
	d, err := Open(data, fuzzLimits)
	if err != nil {
		if d != nil {
			t.Fatalf("Open returned a document and an error (%v)", err)
		}
		if !isOneOf(err, openErrors) {
			t.Fatalf("Open error %q wraps none of the sentinels", err)
		}
		return
	}
	defer func() {
		if err := d.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if err := d.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
	}()
	n := d.NumPages()
	if n < 1 || n > fuzzLimits.MaxPages {
		t.Fatalf("Open accepted %d pages (limit %d)", n, fuzzLimits.MaxPages)
	}
	for i := 1; i <= n; i++ {
		d.SetDeadline(time.Now().Add(fuzzPageTime))
		p, err := d.Page(i)
		if err != nil && !errors.Is(err, ErrPage) {
			t.Errorf("Page(%d) error %q does not wrap ErrPage", i, err)
		}
		if err == nil && p.Number != i {
			t.Errorf("Page(%d).Number = %d", i, p.Number)
		}
		if err == nil {
			if derr := d.DetectRegions(&p); derr != nil && !errors.Is(derr, ErrPage) {
				t.Errorf("DetectRegions(%d) error %q does not wrap ErrPage", i, derr)
			}
			if len(p.Regions) > maxRegions {
				t.Errorf("DetectRegions(%d) kept %d regions, more than %d", i, len(p.Regions), maxRegions)
			}
		}
	}
	d.SetDeadline(time.Now().Add(fuzzPageTime))
	img, err := d.Render(1, 18)
	switch {
	case err != nil && !errors.Is(err, ErrPage):
		t.Errorf("Render(1) error %q does not wrap ErrPage", err)
	case err == nil && (img == nil || img.Rect.Empty()):
		t.Errorf("Render(1) returned an empty image without error")
	case err == nil && len(img.Pix) > MaxRenderPixels:
		t.Errorf("Render(1) returned %d pixels, more than MaxRenderPixels", len(img.Pix))
	}
	if _, err := d.Page(n + 1); !errors.Is(err, ErrPage) {
		t.Errorf("Page(%d) past the end: %v, want ErrPage", n+1, err)
	}
}

func isOneOf(err error, targets []error) bool {
	for _, target := range targets {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// fuzzSeeds are well-formed files from testpdf, damaged and odd ones, and
// a few hand-made byte strings.
func fuzzSeeds() [][]byte {
	text := testpdf.Pages(
		testpdf.Page{Heading: "1 Introduction", Body: "Probabilistic counting estimates the number of distinct elements. " + testpdf.Words("w", 40)},
		testpdf.Page{Body: "Élèves et professeurs: une deuxième page, avec des accents."},
	)
	seeds := [][]byte{
		text,
		text[:len(text)/2], // truncated: no %%EOF, cut inside the page tree
		text[:len(text)-40],
		testpdf.Encrypted("secret", "hidden words"),
		testpdf.TwoColumns(testpdf.Article{
			Title:    "A two-column paper",
			Abstract: "We study reading order.",
			Left:     []string{"Left column text that is read first. " + testpdf.Words("l", 20)},
			Right:    []string{"Right column text that is read second. " + testpdf.Words("r", 20)},
			Caption:  "Figure 1: a caption across the page.",
		}),
		testpdf.Illustrations(testpdf.Illustrated{
			Body:    "A page with a figure.",
			Figures: []testpdf.Figure{{X: 100, Y: 200, W: 200, H: 150, PNG: fuzzPNG()}},
		}),
		testpdf.Blank(1),
		testpdf.ZeroPages(),
		testpdf.PartlyBroken("first page text", 2),
		testpdf.Raw("<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count -1 >>"),
		testpdf.Raw(
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 0 0] /Contents 4 0 R >>",
			"<< /Length 20 >>\nstream\nBT (x) Tj ET 0 0 m\nendstream",
		),
		testpdf.Raw(
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>",
			"<< /Type /XObject /Subtype /Image /Width 4 /Height 4 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 16 >>\nstream\n0123456789abcdef\nendstream",
			"<< /Length 32 >>\nstream\nq 600 0 0 780 6 6 cm /Im1 Do Q\nendstream",
		),
		{},
		[]byte("%PDF-"),
		[]byte("%PDF-1.7\n"),
		[]byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"),
		[]byte("%PDF-1.7\n" + strings.Repeat("\x00garbage", 50)),
		[]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
		[]byte("Lecture notes, chapter 1\n"),
	}
	hostile := testpdf.HostileSet()
	for _, name := range slices.Sorted(maps.Keys(hostile)) {
		seeds = append(seeds, hostile[name])
	}
	return append(seeds, encryptedVariants()...)
}

// encryptedVariants damage the security handler of an encrypted file:
// revisions MuPDF must reject or handle (AES-256 with 32-byte keys,
// unknown revisions) and empty owner and user keys. The password check
// (fz_needs_password) runs outside fz_try in go-fitz.
func encryptedVariants() [][]byte {
	enc := testpdf.Encrypted("secret", "hidden words")
	var out [][]byte
	for _, r := range []struct{ old, new string }{
		{"/V 1\n/R 2", "/V 5\n/R 6"},
		{"/V 1\n/R 2", "/V 5\n/R 5"},
		{"/V 1\n/R 2", "/V 4\n/R 4"},
		{"/V 1\n/R 2", "/V 9\n/R 9"},
		{"/V 1\n/R 2", "/V 2\n/R 3\n/Length 4096"},
		{"/U (", "/U () /X ("},
		{"/O (", "/O () /X ("},
		{"/Filter /Standard", "/Filter /Unknown"},
	} {
		if bytes.Contains(enc, []byte(r.old)) {
			out = append(out, bytes.Replace(enc, []byte(r.old), []byte(r.new), 1))
		}
	}
	return out
}

// fuzzPNG is a small grey gradient.
func fuzzPNG() []byte {
	img := image.NewGray(image.Rect(0, 0, 16, 12))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}
