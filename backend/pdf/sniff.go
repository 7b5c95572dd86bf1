package pdf

import (
	"bytes"
	"unicode/utf8"
)

var pdfHeader = []byte("%PDF-")

func hasHeader(data []byte) bool { return bytes.HasPrefix(data, pdfHeader) }

// signatures maps well-known file signatures to a description.
var signatures = []struct {
	magic []byte
	what  string
}{
	{[]byte("\x89PNG\r\n\x1a\n"), "a PNG image"},
	{[]byte("\xff\xd8\xff"), "a JPEG image"},
	{[]byte("GIF8"), "a GIF image"},
	{[]byte("II*\x00"), "a TIFF image"},
	{[]byte("MM\x00*"), "a TIFF image"},
	{[]byte("PK\x03\x04"), "a ZIP archive (Word, PowerPoint, OpenDocument or EPUB file?)"},
	{[]byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"), "an old Microsoft Office file (.doc, .ppt or .xls)"},
	{[]byte("{\\rtf"), "an RTF document"},
	{[]byte("%!PS"), "a PostScript file"},
	{[]byte("\x1f\x8b"), "a gzip-compressed file"},
	{[]byte("7z\xbc\xaf\x27\x1c"), "a 7-Zip archive"},
	{[]byte("Rar!"), "a RAR archive"},
	{[]byte("\x7fELF"), "a program (ELF executable)"},
	{[]byte("MZ"), "a Windows program"},
	{[]byte("AT&TFORM"), "a DjVu document"},
}

// describe guesses what data is, returning " (it looks like ...)" or "".
func describe(data []byte) string {
	for _, s := range signatures {
		if bytes.HasPrefix(data, s.magic) {
			return " (it looks like " + s.what + ")"
		}
	}
	head := data
	if len(head) > 512 {
		head = head[:512]
	}
	trimmed := bytes.TrimLeft(head, "\ufeff \t\r\n")
	if idx := bytes.Index(head, pdfHeader); idx > 0 {
		return " (a PDF header appears later in the file: it may be damaged)"
	}
	lower := bytes.ToLower(trimmed)
	if bytes.HasPrefix(lower, []byte("<!doctype html")) || bytes.HasPrefix(lower, []byte("<html")) {
		return " (it looks like a web page: was the download interrupted or blocked?)"
	}
	if bytes.HasPrefix(lower, []byte("<?xml")) || bytes.HasPrefix(lower, []byte("<svg")) {
		return " (it looks like an XML or SVG file)"
	}
	if looksLikeText(head) {
		return " (it looks like a plain text file)"
	}
	return ""
}

func looksLikeText(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	// Drop a possibly cut last rune.
	for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); i++ {
		b = b[:len(b)-1]
	}
	if !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' && r != '\f' {
			return false
		}
	}
	return true
}
