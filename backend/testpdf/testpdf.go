// Package testpdf generates small, real PDF files for tests: text pages,
// pages with headings, blank pages, two-column articles, pages with
// images, password-protected files and hand-written odd files (zero
// pages, broken page trees). Output is deterministic (fixed dates,
// no compression randomness) so tests can rely on stable SHA-256 ids.
//
// The generators panic on failure: they only fail on programming errors,
// and they are meant to be called from tests.
package testpdf

import (
	"bytes"
	"fmt"
	"time"

	"github.com/go-pdf/fpdf"
)

// Page describes one generated page: an optional heading printed in bold,
// followed by the body text wrapped to the page width. An empty Body and
// Heading produce a blank page.
type Page struct {
	Heading string
	Body    string
}

// fixedDate keeps generated files byte-identical from run to run.
var fixedDate = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// Text returns an A4 PDF with one page per string, each wrapped in 11 pt
// Helvetica. Text outside Windows-1252 is replaced by fpdf.
func Text(pages ...string) []byte {
	ps := make([]Page, len(pages))
	for i, body := range pages {
		ps[i] = Page{Body: body}
	}
	return Pages(ps...)
}

// Pages returns an A4 PDF with one page per Page.
func Pages(pages ...Page) []byte {
	return build(pages, nil)
}

// Encrypted returns a PDF protected by userPassword (it must not be empty
// for the file to need a password to open) with one page per string.
func Encrypted(userPassword string, pages ...string) []byte {
	ps := make([]Page, len(pages))
	for i, body := range pages {
		ps[i] = Page{Body: body}
	}
	return build(ps, func(f *fpdf.Fpdf) {
		f.SetProtection(fpdf.CnProtectPrint, userPassword, "owner-"+userPassword)
	})
}

// Blank returns a PDF with n pages that carry no text at all.
func Blank(n int) []byte {
	return Pages(make([]Page, n)...)
}

// Words returns n distinct-looking filler words ("lorem0 lorem1 ...")
// prefixed by prefix, handy to fill pages to a given length.
func Words(prefix string, n int) string {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s%d", prefix, i)
	}
	return b.String()
}

func build(pages []Page, setup func(*fpdf.Fpdf)) []byte {
	if len(pages) == 0 {
		panic("testpdf: a generated PDF needs at least one page; use ZeroPages")
	}
	return render(func(f *fpdf.Fpdf, tr func(string) string) {
		if setup != nil {
			setup(f)
		}
		for _, p := range pages { // one Page in, one page out
			f.AddPage()
			if p.Heading != "" {
				f.SetFont("Helvetica", "B", 16)
				f.MultiCell(0, 20, tr(p.Heading), "", "L", false)
				f.Ln(8)
			}
			if p.Body != "" {
				f.SetFont("Helvetica", "", 11)
				f.MultiCell(0, 14, tr(p.Body), "", "L", false)
			}
		}
	})
}

// ZeroPages returns a syntactically valid PDF whose page tree is empty
// (/Count 0), with a correct cross-reference table.
func ZeroPages() []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [] /Count 0 >>",
	}
	return raw(objs)
}

// Raw returns a PDF assembled from the given object bodies (object i+1 is
// objs[i]; object 1 must be the catalog) with a correct xref table. It
// lets tests build deliberately odd files.
func Raw(objs ...string) []byte { return raw(objs) }

func raw(objs []string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// PartlyBroken returns a PDF whose first page shows text and whose next
// unreadable pages cannot be loaded (the page tree points back to itself),
// to exercise per-page failures.
func PartlyBroken(text string, unreadable int) []byte {
	content := fmt.Sprintf("BT /F1 12 Tf 72 720 Td (%s) Tj ET", escape(text))
	return raw([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [3 0 R 2 0 R] /Count %d >>", 1+unreadable),
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	})
}

func escape(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch {
		case r == '(' || r == ')' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r > 0x7e:
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
