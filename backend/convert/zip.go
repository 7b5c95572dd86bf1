package convert

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"io"
	"strings"
)

// maxZipEntries bounds the entries of a ZIP-based file Vika inspects: a
// real deck or book holds hundreds; a file announcing more is refused
// before its directory is read into memory.
const maxZipEntries = 20000

// detectZip names a ZIP-based format: OpenDocument and EPUB by their
// "mimetype" entry, Office Open XML by its main part, XPS by its
// document sequence, a comic book by its extension.
func detectZip(ext string, data []byte) (Format, bool) {
	if n, ok := zipEntries(data); !ok || n > maxZipEntries {
		return Format{}, false
	}
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return Format{}, false
	}
	names := map[string]bool{}
	var mimetype string
	for _, f := range z.File {
		names[f.Name] = true
		if f.Name == "mimetype" && f.UncompressedSize64 < 128 {
			if r, err := f.Open(); err == nil {
				b, _ := io.ReadAll(io.LimitReader(r, 128))
				r.Close()
				mimetype = strings.TrimSpace(string(b))
			}
		}
	}
	switch mimetype {
	case "application/epub+zip":
		return mupdf("epub"), true
	case "application/vnd.oasis.opendocument.presentation":
		return office("odp"), true
	case "application/vnd.oasis.opendocument.text":
		return office("odt"), true
	case "application/vnd.oasis.opendocument.spreadsheet":
		return office("ods"), true
	}
	switch {
	case names["ppt/presentation.xml"]:
		if ext == "ppsx" {
			return office("ppsx"), true
		}
		return office("pptx"), true
	case names["word/document.xml"]:
		return office("docx"), true
	case names["xl/workbook.xml"]:
		return office("xlsx"), true
	case names["FixedDocumentSequence.fdseq"] || names["FixedDocSeq.fdseq"]:
		return mupdf("xps"), true
	case ext == "oxps" || ext == "xps":
		for n := range names {
			if strings.HasSuffix(strings.ToLower(n), ".fdseq") {
				return mupdf("xps"), true
			}
		}
	case ext == "cbz":
		return mupdf("cbz"), true
	}
	return Format{}, false
}

// zipEntries reads the entry count of a ZIP's end-of-central-directory
// record (the last 22 to 65,557 bytes), without reading the directory.
func zipEntries(data []byte) (int, bool) {
	const eocd = 22
	if len(data) < eocd {
		return 0, false
	}
	from := max(0, len(data)-eocd-65535)
	i := bytes.LastIndex(data[from:], []byte("PK\x05\x06"))
	if i < 0 || from+i+eocd > len(data) {
		return 0, false
	}
	rec := data[from+i:]
	n := int(binary.LittleEndian.Uint16(rec[10:12]))
	if n == 0xffff { // ZIP64: the count is elsewhere; read as over the bound
		return maxZipEntries + 1, true
	}
	return n, true
}
