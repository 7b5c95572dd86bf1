package testpdf

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"strconv"
	"strings"
)

// Hostile files: each is a small PDF built by hand around one attack on
// the reader, between ordinary text pages ("before" and "after") so that
// tests can check the rest of the document survives. Page 2 is the
// hostile one unless said otherwise.

// FanOut returns a 3-page file whose page 2 draws a form XObject that
// draws the next one width times, depth levels deep: width^depth drawing
// operations (10^8 at 10 x 8) from about 2 KB.
func FanOut(width, depth int) []byte {
	b := newBook()
	return b.around(b.fanOut(width, depth))
}

// FanOutAlone is FanOut's page 2 alone: no page of it can be read.
func FanOutAlone(width, depth int) []byte {
	b := newBook()
	return b.finish(b.fanOut(width, depth))
}

func (b *book) fanOut(width, depth int) int {
	next := 0 // object number of the level below
	for level := depth; level >= 1; level-- {
		var content string
		res := ""
		if next == 0 {
			content = "0 0 m 1 1 l S"
		} else {
			content = strings.Repeat("/F Do ", width)
			res = fmt.Sprintf("/Resources << /XObject << /F %d 0 R >> >>", next)
		}
		next = b.add(fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] %s /Length %d >>\nstream\n%s\nendstream", res, len(content), content))
	}
	return b.page("0 0 612 792", "q /F Do Q", fmt.Sprintf("/XObject << /F %d 0 R >>", next))
}

// ThinPage returns a 3-page file whose page 2 is w x h points, covered by
// an image (so that it looks scanned) with a word on it: 1e20 x 100 asks
// a renderer scaling it proportionally for terabytes.
func ThinPage(w, h float64) []byte {
	b := newBook()
	ws, hs := strconv.FormatFloat(w, 'f', -1, 64), strconv.FormatFloat(h, 'f', -1, 64)
	img := b.add(flateImage(16))
	content := "q " + ws + " 0 0 " + hs + " 0 0 cm /Im Do Q BT /F1 12 Tf 10 10 Td (thin) Tj ET"
	return b.around(b.page("0 0 "+ws+" "+hs, content, fmt.Sprintf("/XObject << /Im %d 0 R >>", img)))
}

// ImageFlood returns a 3-page file whose page 2, without text, draws one
// side x side grey image n times, each over the same third of the page,
// shifted by a point: the images overlap almost entirely.
func ImageFlood(n, side int) []byte {
	b := newBook()
	img := b.add(flateImage(side))
	var content strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&content, "q 300 0 0 300 %d %d cm /Im Do Q\n", 100+i%50, 200+i%50)
	}
	return b.around(b.page("0 0 612 792", content.String(), fmt.Sprintf("/XObject << /Im %d 0 R >>", img)))
}

// DeepNesting returns a 3-page file whose page 2's content nests depth
// arrays and saved graphics states.
func DeepNesting(depth int) []byte {
	b := newBook()
	content := strings.Repeat("q ", depth) + "[" + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "] 0 d " + strings.Repeat("Q ", depth)
	return b.around(b.page("0 0 612 792", content, ""))
}

// FlateBomb returns a 3-page file whose page 2's content stream inflates
// from a few KB to size bytes of white space and a little text.
func FlateBomb(size int) []byte {
	b := newBook()
	content := "BT /F1 12 Tf 72 720 Td (bomb) Tj ET" + strings.Repeat(" ", size)
	z := deflate([]byte(content))
	stream := b.add(fmt.Sprintf("<< /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", len(z), z))
	return b.around(b.pageWith("0 0 612 792", stream, ""))
}

// HugeStream returns a 3-page file whose page 2's content stream claims
// /Length 2^31-1 bytes and holds a few.
func HugeStream() []byte {
	b := newBook()
	stream := b.add("<< /Length 2147483647 >>\nstream\nBT /F1 12 Tf 72 720 Td (huge) Tj ET\nendstream")
	return b.around(b.pageWith("0 0 612 792", stream, ""))
}

// BrokenXref returns a text file whose cross-reference table points
// every object at the wrong offset (readers must rebuild it).
func BrokenXref() []byte {
	data := Text("A page behind a broken cross-reference table. " + Words("x", 30))
	i := bytes.LastIndex(data, []byte("\nxref\n"))
	if i < 0 {
		panic("testpdf: no xref table")
	}
	tail := bytes.ReplaceAll(data[i:], []byte("0000000"), []byte("0000001"))
	return append(data[:i:i], tail...)
}

// book assembles a PDF object by object: 1 catalog, 2 page tree, 3 font.
type book struct {
	objs []string
}

func newBook() *book {
	return &book{objs: []string{"", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"}}
}

func (b *book) add(obj string) int {
	b.objs = append(b.objs, obj)
	return len(b.objs)
}

// page adds a page with the given media box, content and extra resources.
func (b *book) page(box, content, resources string) int {
	return b.pageWith(box, b.add(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content)), resources)
}

func (b *book) pageWith(box string, contents int, resources string) int {
	return b.add(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [%s] /Contents %d 0 R /Resources << /Font << /F1 3 0 R >> %s >> >>", box, contents, resources))
}

// around puts text pages before and after page and returns the file.
func (b *book) around(page int) []byte {
	before := b.page("0 0 612 792", "BT /F1 12 Tf 72 720 Td (The page before the odd one keeps its text.) Tj ET", "")
	after := b.page("0 0 612 792", "BT /F1 12 Tf 72 720 Td (The page after the odd one keeps its text.) Tj ET", "")
	return b.finish(before, page, after)
}

// finish writes the catalog and the page tree of pages and returns the file.
func (b *book) finish(pages ...int) []byte {
	var kids []string
	for _, p := range pages {
		kids = append(kids, fmt.Sprintf("%d 0 R", p))
	}
	b.objs[0] = "<< /Type /Catalog /Pages 2 0 R >>"
	b.objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages))
	return raw(b.objs)
}

// flateImage is a side x side 8-bit grey image object, mid grey,
// Flate-compressed (a 3000 px side is 9 MB decoded from about 9 KB).
func flateImage(side int) string {
	z := deflate(bytes.Repeat([]byte{128}, side*side))
	return fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", side, side, len(z), z)
}

func deflate(p []byte) []byte {
	var buf bytes.Buffer
	w, _ := zlib.NewWriterLevel(&buf, zlib.BestCompression)
	w.Write(p)
	w.Close()
	return buf.Bytes()
}

// HostileSet is a small file of each kind above, named, for fuzzing seeds
// and tests: each stays under 1 MB.
func HostileSet() map[string][]byte {
	return map[string][]byte{
		"fanout":       FanOut(10, 8),
		"fanout-deep":  FanOutAlone(10, 12),
		"thin":         ThinPage(1e20, 100),
		"wide":         ThinPage(100, 1e9),
		"flood":        ImageFlood(400, 200),
		"flood-few":    ImageFlood(250, 1000),
		"deep-nesting": DeepNesting(3000),
		"flate-bomb":   FlateBomb(32 << 20),
		"huge-stream":  HugeStream(),
		"broken-xref":  BrokenXref(),
	}
}
