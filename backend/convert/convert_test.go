package convert

import (
	"archive/zip"
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"vika/backend/convert/converttest"
	"vika/backend/message"
	"vika/backend/pdf"
	"vika/backend/sandbox"
)

var lim = pdf.Limits{MaxBytes: 200 << 20, MaxPages: 3000}

// bomb is a Word file inflating to 1 GiB (converttest.ZipBomb), made once
// for the tests of both routes.
var bomb = sync.OnceValue(func() []byte { return converttest.ZipBomb(1 << 30) })

// worker is a real PDF worker (this test binary re-executed).
func worker(t *testing.T) *sandbox.Opener {
	t.Helper()
	o := sandbox.New(sandbox.Config{})
	t.Cleanup(func() { o.Close() })
	return o
}

// pageTexts opens a PDF and returns each page's text.
func pageTexts(t *testing.T, data []byte) []string {
	t.Helper()
	d, err := pdf.Open(data, lim)
	if err != nil {
		t.Fatalf("the converted PDF does not open: %v", err)
	}
	defer d.Close()
	var out []string
	for i := 1; i <= d.NumPages(); i++ {
		p, err := d.Page(i)
		if err != nil {
			t.Fatalf("page %d: %v", i, err)
		}
		out = append(out, p.Text)
	}
	return out
}

func TestDetect(t *testing.T) {
	z := func(files map[string]string) []byte {
		var buf bytes.Buffer
		w := zip.NewWriter(&buf)
		for n, body := range files {
			f, _ := w.Create(n)
			f.Write([]byte(body))
		}
		w.Close()
		return buf.Bytes()
	}
	epub := converttest.EPUB("t", [][]string{{"One", "text"}})
	tests := []struct {
		name  string
		data  []byte
		id    string
		route Route
		unit  string
	}{
		{"a.pdf", []byte("%PDF-1.7\n"), "pdf", RouteAsIs, UnitPage},
		{"scan.png", []byte("\x89PNG\r\n\x1a\n...."), "png", RouteMuPDF, UnitPage},
		{"photo.JPG", []byte("\xff\xd8\xff\xe0...."), "jpeg", RouteMuPDF, UnitPage},
		{"page.tif", []byte("II*\x00...."), "tiff", RouteMuPDF, UnitPage},
		{"book.epub", epub, "epub", RouteMuPDF, UnitPage},
		{"no-extension", epub, "epub", RouteMuPDF, UnitPage},
		{"deck.pptx", z(map[string]string{"[Content_Types].xml": "", "ppt/presentation.xml": ""}), "pptx", RouteOffice, UnitSlide},
		{"sheet.docx", z(map[string]string{"[Content_Types].xml": "", "word/document.xml": ""}), "docx", RouteOffice, UnitPage},
		{"marks.xlsx", z(map[string]string{"[Content_Types].xml": "", "xl/workbook.xml": ""}), "xlsx", RouteOffice, UnitPage},
		{"c.odp", z(map[string]string{"mimetype": "application/vnd.oasis.opendocument.presentation"}), "odp", RouteOffice, UnitSlide},
		{"c.odt", z(map[string]string{"mimetype": "application/vnd.oasis.opendocument.text"}), "odt", RouteOffice, UnitPage},
		{"comic.cbz", z(map[string]string{"01.png": "x"}), "cbz", RouteMuPDF, UnitPage},
		{"old.ppt", []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1...."), "ppt", RouteOffice, UnitSlide},
		{"old.doc", []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1...."), "doc", RouteOffice, UnitPage},
		{"notes.rtf", []byte("{\\rtf1 hello}"), "rtf", RouteOffice, UnitPage},
	}
	for _, tt := range tests {
		f, ok := Detect(tt.name, tt.data)
		if !ok || f.ID != tt.id || f.Route != tt.route || f.Unit != tt.unit {
			t.Errorf("Detect(%s) = %+v, %v; want %s route %d unit %s", tt.name, f, ok, tt.id, tt.route, tt.unit)
		}
	}
	for name, data := range map[string][]byte{
		"archive.zip":  z(map[string]string{"a.txt": "x"}),
		"notes.txt":    []byte("plain text"),
		"old.bin":      []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1...."), // an OLE file of no known program
		"image.webp":   []byte("RIFF\x00\x00\x00\x00WEBPVP8 "),
		"empty.pptx":   nil,
		"cut.docx":     []byte("PK\x03\x04 cut short"),
		"program.exe":  []byte("MZ\x90\x00"),
		"ebook.fb2":    []byte("<?xml version='1.0'?><html>"),
		"page.html":    []byte("<html><body>hi</body></html>"),
		"drawing.svg":  []byte("<svg xmlns='http://www.w3.org/2000/svg'/>"),
		"gzipped.pptx": []byte("\x1f\x8b\x08\x00"),
	} {
		if f, ok := Detect(name, data); ok {
			t.Errorf("Detect(%s) = %+v, want not read", name, f)
		}
	}
}

// TestZipEntriesBounded: a ZIP announcing more entries than any real
// deck or book is refused from its end record, its directory unread.
func TestZipEntriesBounded(t *testing.T) {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for i := range maxZipEntries + 1 {
		w.CreateHeader(&zip.FileHeader{Name: "e" + strings.Repeat("x", i%7), Method: zip.Store})
	}
	f, _ := w.Create("ppt/presentation.xml")
	f.Write([]byte("<p/>"))
	w.Close()
	if f, ok := Detect("huge.pptx", buf.Bytes()); ok {
		t.Fatalf("a ZIP of %d entries was read as %+v", maxZipEntries+2, f)
	}
}

// TestMuPDFFormats: images become one page each read by OCR later (a
// photo scaled to an A4 side), an EPUB's chapters come as text, a comic
// book as its pages, all written by MuPDF in a worker.
func TestMuPDFFormats(t *testing.T) {
	c := &Converter{Worker: worker(t), Limits: lim}
	ctx := context.Background()

	png := converttest.TextPNG(t, 200, "Entropy of an isolated system never decreases.")
	photo := image.NewGray(image.Rect(0, 0, 4000, 3000))
	for i := range photo.Pix {
		photo.Pix[i] = uint8(i % 251)
	}
	var jpg bytes.Buffer
	jpeg.Encode(&jpg, photo, &jpeg.Options{Quality: 50})
	for _, im := range []struct {
		name string
		data []byte
	}{{"board.png", png}, {"photo.jpg", jpg.Bytes()}} {
		res, err := c.ToPDF(ctx, im.name, im.data)
		if err != nil {
			t.Fatalf("%s: %v", im.name, err)
		}
		d, err := pdf.Open(res.PDF, lim)
		if err != nil {
			t.Fatal(err)
		}
		p, err := d.Page(1)
		d.Close()
		if err != nil || d.NumPages() != 1 {
			t.Fatalf("%s: %d pages, %v", im.name, d.NumPages(), err)
		}
		if max(p.Width, p.Height) > pdf.MaxImageSide+0.5 || p.Class.Type != "scanned" {
			t.Errorf("%s: page %.0f x %.0f pt, %s; want at most %d pt, scanned", im.name, p.Width, p.Height, p.Class.Type, pdf.MaxImageSide)
		}
		t.Logf("%s (%d bytes) -> one %.0f x %.0f pt page, %s, in %v", im.name, len(im.data), p.Width, p.Height, p.Class.Type, res.Took.Round(time.Millisecond))
	}

	book := converttest.EPUB("Thermodynamics", [][]string{
		{"Chapter one", "The first law conserves energy in every process."},
		{"Chapter two", "The second law says entropy of an isolated system never decreases."},
	})
	res, err := c.ToPDF(ctx, "thermo.epub", book)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(pageTexts(t, res.PDF), "\n")
	for _, want := range []string{"first law conserves energy", "entropy of an isolated system never decreases"} {
		if !strings.Contains(text, want) {
			t.Errorf("the EPUB's PDF misses %q:\n%s", want, text)
		}
	}

	fb2 := []byte(`<?xml version="1.0" encoding="UTF-8"?><FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0"><body><section><title><p>Glaciology</p></title><p>Firn turns into glacier ice under pressure.</p></section></body></FictionBook>`)
	res, err = c.ToPDF(ctx, "glaces.fb2", fb2)
	if err != nil {
		t.Fatal(err)
	}
	if text := strings.Join(pageTexts(t, res.PDF), "\n"); !strings.Contains(text, "Firn turns into glacier ice") {
		t.Errorf("the FB2's PDF misses its paragraph:\n%s", text)
	}

	var cbz bytes.Buffer
	zw := zip.NewWriter(&cbz)
	for _, n := range []string{"01.png", "02.png"} {
		w, _ := zw.Create(n)
		w.Write(png)
	}
	zw.Close()
	res, err = c.ToPDF(ctx, "comic.cbz", cbz.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(pageTexts(t, res.PDF)); n != 2 {
		t.Errorf("the comic book of 2 images gave %d pages", n)
	}
}

// TestMuPDFHostile: a file MuPDF chokes on fails with a code, in the
// worker; a ZIP bomb inside a Word file read by MuPDF's handler without
// LibreOffice is stopped by the worker's budget.
func TestMuPDFHostile(t *testing.T) {
	o := sandbox.New(sandbox.Config{PageTimeout: 5 * time.Second, MemoryBytes: 512 << 20})
	defer o.Close()
	c := &Converter{Worker: o, Limits: lim, Timeout: 5 * time.Second}
	ctx := context.Background()
	for name, data := range map[string][]byte{
		// A PNG of 1024 x 1024 cut after its header (the header's own
		// checks pass it: TestHostileImagesRefused refuses the larger).
		"cut.png":   []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x04\x00\x00\x00\x04\x00\x08\x00"),
		"bad.epub":  converttest.EPUB("x", nil),
		"cut.tif":   append([]byte("II*\x00\x08\x00\x00\x00\xff\xff"), bytes.Repeat([]byte{0xff}, 64)...),
		"bomb.docx": bomb(),
	} {
		start := time.Now()
		res, err := c.ToPDF(ctx, name, data)
		took := time.Since(start)
		t.Logf("%s: %v after %v", name, err, took.Round(time.Millisecond))
		if err == nil {
			pages := pageTexts(t, res.PDF)
			t.Errorf("%s was converted (%d pages)", name, len(pages))
		} else if code := message.Of(err).Code; code != message.Unreadable {
			t.Errorf("%s: code %s, want %s", name, code, message.Unreadable)
		}
		if took > 20*time.Second {
			t.Errorf("%s held the converter %v", name, took)
		}
	}
}

// TestNeedsOffice: without LibreOffice, the Office formats MuPDF does not
// read are refused with their code; docx and pptx are read as reflowed
// text, said so.
func TestNeedsOffice(t *testing.T) {
	soffice := converttest.Soffice(t)
	c := &Converter{Worker: worker(t), Limits: lim}
	profile := t.TempDir()
	odt := converttest.Save(t, soffice, profile, converttest.FlatText([][]string{{"Exercise sheet", "Hexokinase phosphorylates glucose."}}), "fodt", "odt")
	_, err := c.ToPDF(context.Background(), "sheet.odt", odt)
	if err == nil || !strings.Contains(err.Error(), "LibreOffice") {
		t.Errorf("an odt without LibreOffice: %v", err)
	}
	deck := converttest.Save(t, soffice, profile, converttest.FlatDeck([][]string{{"One", "alpha"}, {"Two", "beta"}}), "fodp", "pptx")
	res, err := c.ToPDF(context.Background(), "deck.pptx", deck)
	if err != nil || !res.Reflowed || res.Format.Unit != UnitPage {
		t.Errorf("a pptx without LibreOffice: %+v, %v; want reflowed pages", res.Format, err)
	}
}

// FuzzDetect: naming a format never panics or reads past a bound, and a
// format named routes somewhere known.
func FuzzDetect(f *testing.F) {
	f.Add("a.pptx", []byte("PK\x03\x04"))
	f.Add("b.epub", converttest.EPUB("t", [][]string{{"One", "x"}}))
	f.Add("c.doc", []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"))
	f.Add("d.mobi", append(make([]byte, 60), []byte("BOOKMOBI")...))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		fm, ok := Detect(name, data)
		if ok && (fm.ID == "" || fm.Unit == "" || fm.Route > RouteOffice) {
			t.Fatalf("Detect(%q) = %+v", name, fm)
		}
	})
}

// TestFindOffice: a setting naming a file is used, "off" turns
// LibreOffice off, a setting naming nothing finds none.
func TestFindOffice(t *testing.T) {
	fake := t.TempDir() + "/soffice"
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	none := func(string) string { return "" }
	if got := FindOffice(fake, none); got != fake {
		t.Errorf("FindOffice(%q) = %q", fake, got)
	}
	for _, setting := range []string{"off", "OFF", t.TempDir() + "/missing"} {
		if got := FindOffice(setting, none); got != "" {
			t.Errorf("FindOffice(%q) = %q, want none", setting, got)
		}
	}
}
