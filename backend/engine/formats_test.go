package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vika/backend/convert/converttest"
	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/message"
	"vika/backend/pdf"
)

var deck = [][]string{
	{"Glycolysis overview", "Hexokinase phosphorylates glucose into glucose six phosphate."},
	{"Pyruvate fate", "Anaerobic muscle reduces pyruvate into lactate."},
	{"Krebs cycle", "Citrate synthase condenses acetyl coenzyme with oxaloacetate."},
}

// checkOnPage fails unless the stored PDF of doc (what the viewer shows)
// holds the hit's words on the hit's page.
func checkOnPage(t *testing.T, e *Engine, h corpus.Hit) {
	t.Helper()
	_, data, err := e.DocumentFile(context.Background(), h.DocID)
	if err != nil {
		t.Fatal(err)
	}
	d, err := pdf.Open(data, pdf.Limits{})
	if err != nil {
		t.Fatalf("the stored PDF does not open: %v", err)
	}
	defer d.Close()
	p, err := d.Page(h.Page)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range strings.Fields(h.Text) {
		if !strings.Contains(p.Text, strings.Trim(w, ".,")) {
			t.Errorf("page %d of the stored PDF misses %q of the hit:\n%s", h.Page, w, p.Text)
			return
		}
	}
}

// TestAddSlideDeck: a pptx becomes one page per slide, cited as slides;
// the document's id is the pptx's SHA-256 (adding it again is a
// duplicate) and the session keeps the converted PDF, which the cache
// keeps too: a second session converts nothing.
func TestAddSlideDeck(t *testing.T) {
	soffice := converttest.Soffice(t)
	ctx := context.Background()
	pptx := converttest.Save(t, soffice, t.TempDir(), converttest.FlatDeck(deck), "fodp", "pptx")
	docx := converttest.Save(t, soffice, t.TempDir(), converttest.FlatText([][]string{deck[0], deck[1]}), "fodt", "docx")
	dir := t.TempDir()
	e := newEngine(t, Config{Office: soffice})
	e.SetCache(openCache(t, dir))
	d := addReport(t, e, "cours3.pptx", pptx).Doc
	if d.ID != ingest.DocID(pptx) || d.Format != "pptx" || d.Unit != corpus.UnitSlide || d.Pages != 3 || d.File != "cours3.pptx" {
		t.Fatalf("document %+v", d)
	}
	hits, err := hitsOf(ctx, e, "lactate anaerobic muscle", 3)
	if err != nil || len(hits) == 0 || hits[0].Label != "[cours3.pptx slide 2]" || hits[0].Unit != corpus.UnitSlide {
		t.Fatalf("hits %v, %v; want [cours3.pptx slide 2] first", labels(hits), err)
	}
	checkOnPage(t, e, hits[0])
	if _, err := e.add(ctx, "", "copy.pptx", pptx, nil); !errors.Is(err, ErrDuplicate) {
		t.Errorf("the same pptx again: %v, want a duplicate", err)
	}

	w := addReport(t, e, "fiche.docx", docx).Doc
	if w.Format != "docx" || w.Unit != "" || w.Pages != 2 {
		t.Fatalf("docx document %+v", w)
	}
	hits, _ = hitsOf(ctx, e, "lactate anaerobic muscle", 5)
	for _, h := range hits {
		if h.DocID == w.ID {
			if h.Label != "[fiche.docx p.2]" {
				t.Errorf("the docx's first hit %s, want [fiche.docx p.2]", h.Label)
			}
			checkOnPage(t, e, h)
			break
		}
	}

	// A second session with the same cache: the pptx's PDF comes from the
	// cache, LibreOffice is not run (it is not even there).
	e2 := newEngine(t, Config{Office: "off"})
	e2.SetCache(openCache(t, dir))
	r := addReport(t, e2, "cours3.pptx", pptx)
	if !r.Cached || r.Doc.Unit != corpus.UnitSlide || r.Doc.Pages != 3 || r.Doc.Warning != nil {
		t.Errorf("from the cache: %+v (cached %v)", r.Doc, r.Cached)
	}
	_, kept, err := e2.DocumentFile(ctx, r.Doc.ID)
	_, first, _ := e.DocumentFile(ctx, d.ID)
	if err != nil || string(kept) != string(first) {
		t.Errorf("the cached session's PDF differs from the first (%d and %d bytes, %v)", len(kept), len(first), err)
	}
}

// TestAddWithoutOffice: without LibreOffice a pptx is read by MuPDF's
// handler as text (pages, not slides, with a warning saying so) and an
// odt is refused with its code.
func TestAddWithoutOffice(t *testing.T) {
	soffice := converttest.Soffice(t)
	pptx := converttest.Save(t, soffice, t.TempDir(), converttest.FlatDeck(deck), "fodp", "pptx")
	odt := converttest.Save(t, soffice, t.TempDir(), converttest.FlatText([][]string{deck[0]}), "fodt", "odt")
	e := newEngine(t, Config{Office: "off"})
	d := mustAdd(t, e, "cours3.pptx", pptx)
	if d.Unit != "" || d.Format != "pptx" || d.Warning == nil || d.Warning.Code != message.Reflowed {
		t.Errorf("pptx without LibreOffice: %+v", d)
	}
	_, err := e.add(context.Background(), "", "fiche.odt", odt, nil)
	if code := message.Of(err).Code; code != message.NeedsOffice {
		t.Errorf("odt without LibreOffice: %v (code %s), want %s", err, code, message.NeedsOffice)
	}
}

// TestAddImageAndBook: a photo of a page is read by OCR as a one-page
// scan; an EPUB's chapters are searchable; both keep their names.
func TestAddImageAndBook(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{Office: "off"})
	png := converttest.TextPNG(t, 150, "The Carnot efficiency bounds every heat engine.", "It depends on the two reservoir temperatures only.")
	d := mustAdd(t, e, "tableau.png", png)
	if d.Format != "png" || d.Pages != 1 || d.OCRPages != 1 || d.ID != ingest.DocID(png) {
		t.Fatalf("image document %+v", d)
	}
	hits, err := hitsOf(ctx, e, "Carnot efficiency heat engine", 3)
	if err != nil || len(hits) == 0 || hits[0].Label != "[tableau.png p.1]" {
		t.Fatalf("hits %v, %v", labels(hits), err)
	}
	book := converttest.EPUB("Thermo", [][]string{{"Chapter one", "Joule measured the mechanical equivalent of heat."}})
	b := mustAdd(t, e, "thermo.epub", book)
	if b.Format != "epub" {
		t.Errorf("book %+v", b)
	}
	if hits, _ := hitsOf(ctx, e, "Joule mechanical equivalent", 3); len(hits) == 0 || !strings.HasPrefix(hits[0].Label, "[thermo.epub p.") {
		t.Errorf("book hits %v", labels(hits))
	}
}

// TestCourseKeepsConvertedFiles: a course file keeps a slide deck's
// converted PDF; opened in a session without LibreOffice, the deck comes
// back under the pptx's id, cited as slides, and adding the pptx again
// is a duplicate.
func TestCourseKeepsConvertedFiles(t *testing.T) {
	soffice := converttest.Soffice(t)
	ctx := context.Background()
	pptx := converttest.Save(t, soffice, t.TempDir(), converttest.FlatDeck(deck), "fodp", "pptx")
	e := newEngine(t, Config{Office: soffice})
	d := mustAdd(t, e, "cours3.pptx", pptx)
	path := t.TempDir() + "/course.vika"
	if _, err := e.SaveCourse(ctx, path, nil, nil); err != nil {
		t.Fatal(err)
	}
	e2 := newEngine(t, Config{Office: "off"})
	res, err := e2.OpenCourse(ctx, path, nil, nil)
	if err != nil || len(res.Added) != 1 {
		t.Fatalf("OpenCourse = %+v, %v", res, err)
	}
	got := res.Added[0]
	if got.ID != d.ID || got.Format != "pptx" || got.Unit != corpus.UnitSlide || got.Pages != 3 {
		t.Errorf("the course's deck: %+v, want id %s, pptx, slides", got, d.ID)
	}
	if hits, _ := hitsOf(ctx, e2, "lactate anaerobic muscle", 3); len(hits) == 0 || hits[0].Label != "[cours3.pptx slide 2]" {
		t.Errorf("hits %v", labels(hits))
	}
	if _, err := e2.add(ctx, "", "cours3.pptx", pptx, nil); !errors.Is(err, ErrDuplicate) {
		t.Errorf("the pptx after its course: %v, want a duplicate", err)
	}
}
