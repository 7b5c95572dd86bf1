package convert

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
)

// Route is how a format becomes a PDF.
type Route int

const (
	// AsIs: the file is a PDF.
	RouteAsIs Route = iota
	// MuPDF: MuPDF's own handler opens it in a worker and writes it as PDF.
	RouteMuPDF
	// Office: LibreOffice converts it with its layout; without
	// LibreOffice, MuPDF's Office handler reads the formats it knows
	// (docx, pptx, xlsx) as reflowed text, and the others are refused.
	RouteOffice
)

// Units a document's pages are cited by.
const (
	UnitPage  = "page"
	UnitSlide = "slide"
)

// Format is what kind of file a document was added as.
type Format struct {
	// ID names the format: "pdf", "pptx", "docx", "odp", "odt", "xlsx",
	// "ods", "ppt", "doc", "xls", "rtf", "png", "jpeg", "tiff", "gif",
	// "bmp", "webp"..., "epub", "xps", "cbz", "fb2", "mobi".
	ID string
	// Route is how it becomes a PDF.
	Route Route
	// Unit is what its pages are called: UnitSlide for slide decks.
	Unit string
	// Kind is the type MuPDF opens it as (a file extension it knows).
	Kind string
}

// Image reports whether the format is an image (read by OCR as a scan).
func (f Format) Image() bool {
	switch f.ID {
	case "png", "jpeg", "tiff", "gif", "bmp", "jp2", "jxr", "pnm", "psd", "webp":
		return true
	}
	return false
}

var pdfFormat = Format{ID: "pdf", Route: RouteAsIs, Unit: UnitPage}

func mupdf(id string) Format { return Format{ID: id, Route: RouteMuPDF, Unit: UnitPage, Kind: id} }

func office(id string) Format {
	unit := UnitPage
	switch id {
	case "pptx", "odp", "ppt", "ppsx", "pps":
		unit = UnitSlide
	}
	return Format{ID: id, Route: RouteOffice, Unit: unit, Kind: id}
}

// images are the image signatures MuPDF decodes, with their format.
var images = []struct {
	magic []byte
	id    string
}{
	{[]byte("\x89PNG\r\n\x1a\n"), "png"},
	{[]byte("\xff\xd8\xff"), "jpeg"},
	{[]byte("II*\x00"), "tiff"},
	{[]byte("MM\x00*"), "tiff"},
	{[]byte("GIF87a"), "gif"},
	{[]byte("GIF89a"), "gif"},
	{[]byte("\x00\x00\x00\x0cjP  \r\n\x87\n"), "jp2"},
	{[]byte("\xff\x4f\xff\x51"), "jp2"},
	{[]byte("II\xbc"), "jxr"},
	{[]byte("8BPS"), "psd"},
}

// Detect names the format of a file from its bytes, its name's extension
// breaking the ties bytes leave (a ZIP of images is a comic book only as
// .cbz; an old Office file says which program by its extension). ok is
// false for a file Vika does not read: package pdf's check then says
// what it looks like.
func Detect(name string, data []byte) (f Format, ok bool) {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(name)), ".")
	switch {
	case bytes.HasPrefix(data, []byte("%PDF-")):
		return pdfFormat, true
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		return detectZip(ext, data)
	case bytes.HasPrefix(data, []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")):
		switch ext { // an OLE compound file: only its extension says which
		case "doc", "ppt", "xls", "pps":
			return office(ext), true
		}
		return Format{}, false
	case bytes.HasPrefix(data, []byte("{\\rtf")):
		return office("rtf"), true
	case len(data) >= 68 && string(data[60:68]) == "BOOKMOBI":
		return mupdf("mobi"), true
	case bytes.HasPrefix(data, []byte("BM")) && ext == "bmp":
		return Format{ID: "bmp", Route: RouteMuPDF, Unit: UnitPage, Kind: "bmp"}, true
	}
	for _, im := range images {
		if bytes.HasPrefix(data, im.magic) {
			return mupdf(im.id), true
		}
	}
	if len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP" {
		return Format{}, false // MuPDF 1.24 does not decode WebP
	}
	head := data[:min(len(data), 1024)]
	if ext == "fb2" && bytes.Contains(head, []byte("<FictionBook")) {
		return mupdf("fb2"), true
	}
	return Format{}, false
}

// Label is the name a document is shown and cited under: the file's own
// name, given the extension of its format when it has none (a dropped
// "Lecture 3" that is a PowerPoint file is "Lecture 3.pptx").
func Label(name string, f Format) string {
	if f.ID == "" || filepath.Ext(name) != "" {
		return name
	}
	ext := f.ID
	if ext == "jpeg" {
		ext = "jpg"
	}
	return name + "." + ext
}

// Extensions are the file name extensions of the formats Vika reads
// besides PDF (a folder added keeps these files; the file manager offers
// "Open with Vika" for them).
var Extensions = []string{
	"pptx", "ppsx", "odp", "ppt", "pps", "docx", "odt", "doc", "rtf", "xlsx", "ods", "xls",
	"epub", "xps", "oxps", "cbz", "fb2", "mobi",
	"png", "jpg", "jpeg", "tif", "tiff", "gif", "bmp", "jp2",
}

// Known reports whether name's extension is PDF's or one of Extensions.
func Known(name string) bool {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(name)), ".")
	return ext == "pdf" || slices.Contains(Extensions, ext)
}

// Pattern is a file dialog's pattern of the files Vika reads: "*.pdf;
// *.PDF;*.pptx;*.PPTX;...".
func Pattern() string {
	var b strings.Builder
	for _, ext := range append([]string{"pdf"}, Extensions...) {
		if b.Len() > 0 {
			b.WriteByte(';')
		}
		b.WriteString("*." + ext + ";*." + strings.ToUpper(ext))
	}
	return b.String()
}
