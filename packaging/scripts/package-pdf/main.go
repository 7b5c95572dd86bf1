// Command package-pdf writes the PDF packaging/scripts/package-test.sh ingests with the
// installed Debian package: page 1 is born-digital text, page 2 is the image
// of another text page only (no text layer), so it needs OCR. With a second
// path it also writes a French text page (the package embeds only the
// language models of backend/langid: French must still be recognised).
// With --formats DIR it writes instead the files of the other formats the
// installers are tested with (backend/convert): tableau.png (a photo of
// scanBody's page, read by OCR), livre.epub (a two-chapter book read by
// MuPDF's EPUB handler) and deck.fodp (a three-slide flat OpenDocument
// presentation, which the tests turn into a pptx with LibreOffice).
//
//	go run ./packaging/scripts/package-pdf OUT.pdf [OUT_FR.pdf]
//	go run ./packaging/scripts/package-pdf --formats DIR
package main

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"

	"vika/backend/convert/converttest"
	"vika/backend/pdf"
	"vika/backend/testpdf"
)

// textBody is the text layer of page 1; scanBody is only in the picture on
// page 2, so a search finds it there only if OCR worked.
const (
	textBody = "Photosynthesis in alpine meadows. Chlorophyll absorbs red and blue light and " +
		"reflects green light. The measured photosynthetic rate of the meadow grasses rose " +
		"with temperature until noon and fell during the afternoon drought."
	scanBody = "Glaciers of the Cordillera retreated quickly. The moraine sediments were dated " +
		"with radiocarbon, and the meltwater discharge was measured every summer at the " +
		"outlet of the valley."
	frenchBody = "Les glaciers des Alpes ont reculé rapidement au cours du siècle dernier. Les " +
		"sédiments des moraines ont été datés au carbone 14, et le débit de l’eau de fonte a été " +
		"mesuré chaque été à la sortie de la vallée."
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "--formats" {
		if err := formats(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "package-pdf:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) < 2 || len(os.Args) > 3 {
		fmt.Fprintln(os.Stderr, "usage: go run ./packaging/scripts/package-pdf OUT.pdf [OUT_FR.pdf]")
		os.Exit(2)
	}
	err := os.WriteFile(os.Args[1], build(), 0o644)
	if err == nil && len(os.Args) == 3 {
		err = os.WriteFile(os.Args[2], testpdf.Text(frenchBody), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "package-pdf:", err)
		os.Exit(1)
	}
}

// Slides and chapters of the --formats files: each holds words of its own.
var (
	deckSlides = [][]string{
		{"Alpine meadows", "Chlorophyll absorbs red and blue light."},
		{"Glacier retreat", "Moraine sediments were dated with radiocarbon."},
		{"Meltwater", "The discharge was measured every summer at the valley outlet."},
	}
	bookChapters = [][]string{
		{"Chapter one", "Sea ice reflects most of the incoming sunlight."},
		{"Chapter two", "Permafrost thaw releases methane into the atmosphere."},
	}
)

// formats writes the files of the other formats into dir.
func formats(dir string) error {
	files := map[string][]byte{
		"tableau.png": scanPNG(),
		"livre.epub":  converttest.EPUB("Polar climate", bookChapters),
		"deck.fodp":   converttest.FlatDeck(deckSlides),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// scanPNG renders a text page holding scanBody at 200 DPI with MuPDF.
func scanPNG() []byte {
	doc, err := pdf.Open(testpdf.Text(scanBody), pdf.Limits{})
	if err != nil {
		panic(err)
	}
	defer doc.Close()
	img, err := doc.Render(1, 200)
	if err != nil {
		panic(err)
	}
	var pic bytes.Buffer
	if err := png.Encode(&pic, img); err != nil {
		panic(err)
	}
	return pic.Bytes()
}

// build lays scanPNG's picture over a whole A4 page, after a page of plain
// text.
func build() []byte {
	pic := bytes.NewBuffer(scanPNG())
	const a4W, a4H = 595.28, 841.89
	return testpdf.Illustrations(
		testpdf.Illustrated{Body: textBody},
		testpdf.Illustrated{Figures: []testpdf.Figure{{X: 0, Y: 0, W: a4W, H: a4H, PNG: pic.Bytes()}}},
	)
}
