package testpdf

import (
	"fmt"
	"strings"
	"unicode/utf16"
)

// Files with what a PDF holds besides its drawn text: AcroForm fields,
// annotations and links, written object by object (fpdf makes neither
// forms nor annotations). Pages are US Letter (612 x 792 pt) in 12 pt
// Helvetica; boxes are given in PDF space (origin at the bottom left).

// Widget is one form field of Form, with one widget on page 1.
type Widget struct {
	Name  string     // the field's partial name (/T)
	Label string     // its tooltip (/TU), "" for none
	Type  string     // "text", "checkbox", "choice" or "radio"
	Value string     // the text, the choice, or a check box's on-state ("" for Off)
	Opts  []string   // a choice field's options
	Rect  [4]float64 // x0, y0, x1, y1
}

// Form returns a two-page PDF. Page 1 prints lines and holds widgets, an
// AcroForm field each (a radio field's widgets with the same Name make one
// field); page 2 prints lines as they are (for "Label: value" layouts).
func Form(page1, page2 []string, widgets []Widget) []byte {
	b := &objects{}
	catalog := b.add("")
	pages := b.add("")
	font := b.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	p1, p2 := b.reserve(), b.reserve()
	var annots, fields []int
	radios := map[string]int{} // radio group name -> its field object
	for _, w := range widgets {
		rect := fmt.Sprintf("[%g %g %g %g]", w.Rect[0], w.Rect[1], w.Rect[2], w.Rect[3])
		tu := ""
		if w.Label != "" {
			tu = " /TU " + pdfString(w.Label)
		}
		switch w.Type {
		case "text":
			id := b.add(fmt.Sprintf("<< /Type /Annot /Subtype /Widget /FT /Tx /T %s%s /V %s /Rect %s /P %d 0 R /DA (/Helv 10 Tf 0 g) >>", pdfString(w.Name), tu, pdfString(w.Value), rect, p1))
			annots, fields = append(annots, id), append(fields, id)
		case "checkbox":
			v := "/Off"
			if w.Value != "" {
				v = "/" + w.Value
			}
			id := b.add(fmt.Sprintf("<< /Type /Annot /Subtype /Widget /FT /Btn /T %s%s /V %s /AS %s /Rect %s /P %d 0 R >>", pdfString(w.Name), tu, v, v, rect, p1))
			annots, fields = append(annots, id), append(fields, id)
		case "choice":
			var opts []string
			for _, o := range w.Opts {
				opts = append(opts, pdfString(o))
			}
			id := b.add(fmt.Sprintf("<< /Type /Annot /Subtype /Widget /FT /Ch /Ff 131072 /T %s%s /V %s /Opt [%s] /Rect %s /P %d 0 R /DA (/Helv 10 Tf 0 g) >>", pdfString(w.Name), tu, pdfString(w.Value), strings.Join(opts, " "), rect, p1))
			annots, fields = append(annots, id), append(fields, id)
		case "radio":
			parent, ok := radios[w.Name]
			if !ok {
				v := "/Off"
				if w.Value != "" {
					v = "/" + w.Value
				}
				parent = b.add("")
				radios[w.Name] = parent
				b.set(parent, fmt.Sprintf("<< /FT /Btn /Ff 49152 /T %s%s /V %s /Kids [] >>", pdfString(w.Name), tu, v))
				fields = append(fields, parent)
			}
			id := b.add(fmt.Sprintf("<< /Type /Annot /Subtype /Widget /Parent %d 0 R /AS /Off /Rect %s /P %d 0 R >>", parent, rect, p1))
			b.set(parent, strings.Replace(b.get(parent), "/Kids [", fmt.Sprintf("/Kids [%d 0 R ", id), 1))
			annots = append(annots, id)
		default:
			panic("testpdf: unknown widget type " + w.Type)
		}
	}
	b.page(p1, pages, font, page1, annots)
	b.page(p2, pages, font, page2, nil)
	b.set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R %d 0 R] /Count 2 >>", p1, p2))
	b.set(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R /AcroForm << /Fields [%s] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv %d 0 R >> >> >> >>", pages, refs(fields), font))
	return raw(b.objs)
}

// Annot is one annotation of Annotated, on page 1.
type Annot struct {
	Type     string     // "Text", "Highlight", "FreeText", "Link", "Popup", ...
	Contents string     // /Contents ("" for none)
	URI      string     // a Link's target (/A << /S /URI >>); "" with GoTo for an internal link
	Rect     [4]float64 // x0, y0, x1, y1
}

// Annotated returns a one-page PDF printing lines (12 pt, from y = 720
// down by 16 pt a line, at x = 72) and holding annots.
func Annotated(lines []string, annots []Annot) []byte {
	b := &objects{}
	catalog := b.add("")
	pages := b.add("")
	font := b.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	p1 := b.reserve()
	var ids []int
	for _, a := range annots {
		r := a.Rect
		rect := fmt.Sprintf("[%g %g %g %g]", r[0], r[1], r[2], r[3])
		extra := ""
		if a.Contents != "" {
			extra += " /Contents " + pdfString(a.Contents)
		}
		switch a.Type {
		case "Link":
			if a.URI != "" {
				extra += " /A << /S /URI /URI " + pdfString(a.URI) + " >>"
			} else {
				extra += fmt.Sprintf(" /Dest [%d 0 R /Fit]", p1)
			}
		case "Highlight", "Underline", "Squiggly", "StrikeOut":
			extra += fmt.Sprintf(" /QuadPoints [%g %g %g %g %g %g %g %g] /C [1 1 0]", r[0], r[3], r[2], r[3], r[0], r[1], r[2], r[1])
		case "FreeText":
			extra += " /DA (/Helv 10 Tf 0 g)"
		}
		ids = append(ids, b.add(fmt.Sprintf("<< /Type /Annot /Subtype /%s /Rect %s /P %d 0 R%s >>", a.Type, rect, p1, extra)))
	}
	b.page(p1, pages, font, lines, ids)
	b.set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", p1))
	b.set(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages))
	return raw(b.objs)
}

// objects builds a PDF's numbered objects (object i+1 is objs[i]).
type objects struct{ objs []string }

func (b *objects) add(body string) int     { b.objs = append(b.objs, body); return len(b.objs) }
func (b *objects) reserve() int            { return b.add("") }
func (b *objects) set(id int, body string) { b.objs[id-1] = body }
func (b *objects) get(id int) string       { return b.objs[id-1] }

// page fills object id with a Letter page printing lines and holding
// annots.
func (b *objects) page(id, parent, font int, lines []string, annots []int) {
	var c strings.Builder
	c.WriteString("BT /F1 12 Tf 16 TL 72 720 Td\n")
	for _, l := range lines {
		fmt.Fprintf(&c, "(%s) Tj T*\n", escape(l))
	}
	c.WriteString("ET")
	content := b.add(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", c.Len(), c.String()))
	annot := ""
	if len(annots) > 0 {
		annot = " /Annots [" + refs(annots) + "]"
	}
	b.set(id, fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> >>%s >>", parent, content, font, annot))
}

func refs(ids []int) string {
	var parts []string
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf("%d 0 R", id))
	}
	return strings.Join(parts, " ")
}

// pdfString writes s as a PDF string: literal when it is printable
// ASCII, UTF-16BE with a byte-order mark otherwise.
func pdfString(s string) string {
	ascii := true
	for _, r := range s {
		if r < 0x20 || r > 0x7e {
			ascii = false
			break
		}
	}
	if ascii {
		return "(" + strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(s) + ")"
	}
	var h strings.Builder
	h.WriteString("<FEFF")
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&h, "%04X", u)
	}
	h.WriteString(">")
	return h.String()
}
