package testpdf

import (
	"fmt"
	"strings"
)

// SharedText returns a file of pages pages that all draw one form XObject
// holding about chars characters of text (1 pt Helvetica, lines of 1,000
// characters): the form is stored once, Flate-compressed, so the file
// stays small while each page, read alone, is within the worker's budget
// and the document amounts to pages x chars characters in the app.
func SharedText(pages, chars int) []byte {
	b := newBook()
	line := strings.Repeat("amplified words ", 1000/16+1)[:1000]
	var content strings.Builder
	content.WriteString("BT /F1 1 Tf 0 999 Td 0.8 TL\n")
	for n := 0; n < chars; n += len(line) {
		content.WriteString("T* (" + line + ") Tj\n")
	}
	content.WriteString("ET")
	z := deflate([]byte(content.String()))
	form := b.add(fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 612 1000] /Resources << /Font << /F1 3 0 R >> >> /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", len(z), z))
	res := fmt.Sprintf("/XObject << /T %d 0 R >>", form)
	contents := b.add("<< /Length 11 >>\nstream\nq /T Do Q\nendstream")
	var kids []int
	for range pages {
		kids = append(kids, b.pageWith("0 0 612 1000", contents, res))
	}
	return b.finish(kids...)
}
