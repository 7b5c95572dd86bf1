package testpdf

import (
	"fmt"
	"strings"

	"github.com/go-pdf/fpdf"
)

// Bookmark is one outline entry of Outlined: its title, 0-based depth
// (at most one deeper than the entry before) and 1-based page.
type Bookmark struct {
	Title string
	Depth int
	Page  int
}

// Outlined returns a PDF of pages text pages whose information dictionary
// holds title, author, subject, keywords and creator (UTF-8), created and
// modified 2024-01-02 03:04:05 UTC, with the given outline.
func Outlined(pages int, title, author, subject, keywords, creator string, marks []Bookmark) []byte {
	return render(func(f *fpdf.Fpdf, tr func(string) string) {
		f.SetTitle(title, true)
		f.SetAuthor(author, true)
		f.SetSubject(subject, true)
		f.SetKeywords(keywords, true)
		f.SetCreator(creator, true)
		f.SetFont("Helvetica", "", 12)
		for p := 1; p <= pages; p++ {
			f.AddPage()
			for _, m := range marks {
				if m.Page == p {
					f.Bookmark(m.Title, m.Depth, 0)
				}
			}
			f.Text(margin, 2*margin, tr(fmt.Sprintf("Page %d of the outlined document.", p)))
		}
	})
}

// HostileOutline returns a one-page PDF whose outline is built to make a
// reader loop or exhaust itself: a first chain of wide entries at top
// level, then one entry nested deep levels down, then (with loop) an
// entry whose /Next points back to itself and whose /First is the outline
// root. deep must be at least 2.
func HostileOutline(wide, deep int, loop bool) []byte {
	b := newBook()
	page := b.page("0 0 612 792", "BT /F1 12 Tf 72 720 Td (A page under a hostile outline.) Tj ET", "")
	root := b.add("") // the /Outlines dictionary, filled in below
	var top []int
	for i := 0; i < wide; i++ {
		top = append(top, b.add(""))
	}
	chain := make([]int, deep)
	for i := range chain {
		chain[i] = b.add("")
	}
	last := b.add("")
	top = append(top, chain[0], last)
	item := func(title string, parent, prev, next, first, last int) string {
		var s strings.Builder
		fmt.Fprintf(&s, "<< /Title (%s) /Parent %d 0 R /Dest [%d 0 R /XYZ 0 792 0]", title, parent, page)
		for _, l := range []struct {
			key string
			obj int
		}{{"Prev", prev}, {"Next", next}, {"First", first}, {"Last", last}} {
			if l.obj > 0 {
				fmt.Fprintf(&s, " /%s %d 0 R", l.key, l.obj)
			}
		}
		s.WriteString(" >>")
		return s.String()
	}
	for i, o := range top[:len(top)-1] {
		prev := 0
		if i > 0 {
			prev = top[i-1]
		}
		first, last := 0, 0
		title := fmt.Sprintf("Wide %d", i+1)
		if o == chain[0] {
			first, last, title = chain[1], chain[1], "Deep 1"
		}
		b.objs[o-1] = item(title, root, prev, top[i+1], first, last)
	}
	for i := 1; i < deep; i++ {
		first := 0
		if i+1 < deep {
			first = chain[i+1]
		}
		b.objs[chain[i]-1] = item(fmt.Sprintf("Deep %d", i+1), chain[i-1], 0, 0, first, first)
	}
	if loop {
		b.objs[last-1] = item("Loop", root, top[len(top)-2], last, root, root)
	} else {
		b.objs[last-1] = item("Last", root, top[len(top)-2], 0, 0, 0)
	}
	b.objs[root-1] = fmt.Sprintf("<< /Type /Outlines /First %d 0 R /Last %d 0 R >>", top[0], last)
	b.finish(page)
	b.objs[0] = fmt.Sprintf("<< /Type /Catalog /Pages 2 0 R /Outlines %d 0 R >>", root)
	return raw(b.objs)
}
