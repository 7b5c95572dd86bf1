// Package converttest makes the files package convert's tests read, for
// real: slide decks and Word files written by LibreOffice itself from
// the flat OpenDocument files made here (Deck, Sheet), EPUBs and comic
// books zipped here, images of text rendered by MuPDF, and hostile ones
// (a ZIP bomb inside a Word file, a document whose macro would write a
// file when it opens).
package converttest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/testpdf"
	"vika/backend/testpdf/scanned"
)

// Soffice returns LibreOffice's soffice, or skips the test saying how to
// install it.
func Soffice(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"soffice", "/usr/bin/soffice", "/usr/lib/libreoffice/program/soffice"} {
		if full, err := exec.LookPath(p); err == nil {
			return full
		}
	}
	t.Skip("LibreOffice is not installed (apt-get install libreoffice-impress-nogui libreoffice-writer-nogui; scripts/setup/apt-packages.txt lists them)")
	return ""
}

const odfHead = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:script="urn:oasis:names:tc:opendocument:xmlns:script:1.0" xmlns:ooo="http://openoffice.org/2004/office" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dom="http://www.w3.org/2001/xml-events" office:version="1.3" office:mimetype="%s">
`

// FlatDeck is a flat OpenDocument presentation (.fodp): one slide per
// element of slides, each a title (its first line, large) and its lines.
func FlatDeck(slides [][]string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, odfHead, "application/vnd.oasis.opendocument.presentation")
	b.WriteString(`<office:automatic-styles>` +
		`<style:style style:name="plain" style:family="graphic"><style:graphic-properties draw:fill="none" draw:stroke="none"/></style:style>` +
		`<style:style style:name="title" style:family="paragraph"><style:text-properties fo:font-size="36pt" fo:font-weight="bold"/></style:style>` +
		`<style:style style:name="body" style:family="paragraph"><style:text-properties fo:font-size="24pt"/></style:style>` +
		"</office:automatic-styles>\n")
	b.WriteString("<office:body><office:presentation>\n")
	for i, s := range slides {
		fmt.Fprintf(&b, `<draw:page draw:name="slide%d"><draw:frame draw:style-name="plain" svg:x="1.5cm" svg:y="1.5cm" svg:width="25cm" svg:height="16cm"><draw:text-box>`, i+1)
		for j, line := range s {
			style := "body"
			if j == 0 {
				style = "title"
			}
			fmt.Fprintf(&b, `<text:p text:style-name="%s">%s</text:p>`, style, html.EscapeString(line))
		}
		b.WriteString("</draw:text-box></draw:frame></draw:page>\n")
	}
	b.WriteString("</office:presentation></office:body></office:document>\n")
	return []byte(b.String())
}

// FlatText is a flat OpenDocument text (.fodt): a heading, then one
// paragraph per element of paras; a page break before each heading of
// pages after the first.
func FlatText(pages [][]string) []byte { return flatText(pages, "") }

func flatText(pages [][]string, extra string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, odfHead, "application/vnd.oasis.opendocument.text")
	b.WriteString(extra)
	b.WriteString(`<office:automatic-styles><style:style style:name="Break" style:family="paragraph"><style:paragraph-properties fo:break-before="page"/></style:style></office:automatic-styles>`)
	b.WriteString("<office:body><office:text>\n")
	for i, p := range pages {
		for j, para := range p {
			style := ""
			if i > 0 && j == 0 {
				style = ` text:style-name="Break"`
			}
			fmt.Fprintf(&b, "<text:p%s>%s</text:p>\n", style, html.EscapeString(para))
		}
	}
	b.WriteString("</office:text></office:body></office:document>\n")
	return []byte(b.String())
}

// MacroText is a flat OpenDocument text whose Basic macro, bound to the
// document's load event, writes marker (a path) when it runs.
func MacroText(marker string, paras []string) []byte {
	script := `<office:scripts><office:script script:language="ooo:Basic"><ooo:libraries><ooo:library-embedded ooo:name="Standard"><ooo:module ooo:name="Module1"><ooo:source-code>Sub Main
  Open "` + marker + `" For Output As #1
  Print #1, "the macro ran"
  Close #1
End Sub
</ooo:source-code></ooo:module></ooo:library-embedded></ooo:libraries></office:script>
<office:event-listeners><script:event-listener script:language="ooo:script" script:event-name="dom:load" xlink:href="vnd.sun.star.script:Standard.Module1.Main?language=Basic&amp;location=document" xlink:type="simple"/></office:event-listeners></office:scripts>
`
	return flatText([][]string{paras}, script)
}

// LinkedImage is a flat OpenDocument text whose image is not in the file
// but fetched from url when the document is laid out.
func LinkedImage(url string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, odfHead, "application/vnd.oasis.opendocument.text")
	b.WriteString(`<office:body><office:text><text:p>A sheet with a linked picture.<draw:frame draw:name="img" svg:width="4cm" svg:height="4cm" text:anchor-type="as-char">`)
	fmt.Fprintf(&b, `<draw:image xlink:href="%s" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/>`, html.EscapeString(url))
	b.WriteString("</draw:frame></text:p></office:text></office:body></office:document>\n")
	return []byte(b.String())
}

// Save converts flat, a flat OpenDocument file (ext "fodp" or "fodt"), to
// format ("pptx", "docx", "odp", "odt", ...) with LibreOffice and returns
// the file; profile is the LibreOffice profile directory to use (a test's
// temporary one).
func Save(t testing.TB, soffice, profile string, flat []byte, ext, format string) []byte {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "in."+ext)
	if err := os.WriteFile(in, flat, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(soffice, "--headless", "--norestore", "-env:UserInstallation=file://"+profile,
		"--convert-to", format, "--outdir", dir, in)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("LibreOffice converting to %s: %v\n%s", format, err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "in."+format))
	if err != nil {
		t.Fatalf("LibreOffice wrote no %s: %v", format, err)
	}
	return b
}

// EPUB is an EPUB 2 book with one XHTML chapter per element of chapters
// (each a title and its paragraphs).
func EPUB(title string, chapters [][]string) []byte {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	add := func(name, body string, method uint16) {
		w, err := z.CreateHeader(&zip.FileHeader{Name: name, Method: method})
		if err != nil {
			panic(err)
		}
		w.Write([]byte(body))
	}
	add("mimetype", "application/epub+zip", zip.Store)
	add("META-INF/container.xml", `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`, zip.Deflate)
	var manifest, spine strings.Builder
	for i, ch := range chapters {
		id := fmt.Sprintf("ch%d", i+1)
		fmt.Fprintf(&manifest, `<item id="%s" href="%s.xhtml" media-type="application/xhtml+xml"/>`, id, id)
		fmt.Fprintf(&spine, `<itemref idref="%s"/>`, id)
		var body strings.Builder
		fmt.Fprintf(&body, "<h1>%s</h1>", html.EscapeString(ch[0]))
		for _, p := range ch[1:] {
			fmt.Fprintf(&body, "<p>%s</p>", html.EscapeString(p))
		}
		add("OEBPS/"+id+".xhtml", `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>`+html.EscapeString(ch[0])+`</title></head><body>`+body.String()+`</body></html>`, zip.Deflate)
	}
	add("OEBPS/content.opf", `<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>`+html.EscapeString(title)+`</dc:title><dc:identifier id="id">vika-test</dc:identifier><dc:language>en</dc:language></metadata><manifest>`+manifest.String()+`</manifest><spine>`+spine.String()+`</spine></package>`, zip.Deflate)
	if err := z.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// TextPNG is a grey PNG of lines of text, as a photographed or scanned
// page gives: a PDF of the lines rendered by MuPDF at dpi.
func TextPNG(t testing.TB, dpi float64, lines ...string) []byte {
	t.Helper()
	return scanned.Render(t, testpdf.Text(strings.Join(lines, "\n")), dpi)
}

// ZipBomb is a Word file (.docx) whose document part inflates to about
// size bytes of text from about a megabyte: the bomb inside an Office
// file. The deflate stream is made without compressing size bytes: one
// 5 MiB run of text compressed alone (its back-references stay inside
// it) is repeated, between the XML's head and tail, each compressed alone
// too.
func ZipBomb(size int) []byte {
	deflate := func(b []byte, last bool) []byte {
		var out bytes.Buffer
		w, _ := flate.NewWriter(&out, flate.BestCompression)
		w.Write(b)
		if last {
			w.Close()
		} else {
			w.Flush() // byte-aligned and not final: another stream may follow
		}
		return out.Bytes()
	}
	head := []byte(`<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>`)
	tail := []byte(`</w:t></w:r></w:p></w:body></w:document>`)
	unit := bytes.Repeat([]byte("bomb "), 1<<20)
	n := max(1, size/len(unit))
	var data bytes.Buffer
	data.Write(deflate(head, false))
	block := deflate(unit, false)
	crc := crc32.Update(0, crc32.IEEETable, head)
	for range n {
		data.Write(block)
		crc = crc32.Update(crc, crc32.IEEETable, unit)
	}
	data.Write(deflate(tail, true))
	crc = crc32.Update(crc, crc32.IEEETable, tail)

	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	put := func(name, body string) {
		w, _ := z.Create(name)
		w.Write([]byte(body))
	}
	put("[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`)
	put("word/_rels/document.xml.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>`)
	put("_rels/.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`)
	w, _ := z.CreateRaw(&zip.FileHeader{Name: "word/document.xml", Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(data.Len()), UncompressedSize64: uint64(len(head) + n*len(unit) + len(tail))})
	w.Write(data.Bytes())
	z.Close()
	return buf.Bytes()
}
