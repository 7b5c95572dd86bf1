package pdf

import (
	"bytes"
	"unicode/utf8"
)

var pdfHeader = []byte("%PDF-")

func hasHeader(data []byte) bool { return bytes.HasPrefix(data, pdfHeader) }

// signatures maps well-known file signatures to a description.
// id names what the file is for the window (message code "looks." + id).
var signatures = []struct {
	magic []byte
	id    string
	what  string
}{
	{[]byte("\x89PNG\r\n\x1a\n"), "png", "a PNG image"},
	{[]byte("\xff\xd8\xff"), "jpeg", "a JPEG image"},
	{[]byte("GIF8"), "gif", "a GIF image"},
	{[]byte("II*\x00"), "tiff", "a TIFF image"},
	{[]byte("MM\x00*"), "tiff", "a TIFF image"},
	{[]byte("PK\x03\x04"), "zip", "a ZIP archive (Word, PowerPoint, OpenDocument or EPUB file?)"},
	{[]byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"), "office", "an old Microsoft Office file (.doc, .ppt or .xls)"},
	{[]byte("{\\rtf"), "rtf", "an RTF document"},
	{[]byte("%!PS"), "postscript", "a PostScript file"},
	{[]byte("\x1f\x8b"), "gzip", "a gzip-compressed file"},
	{[]byte("7z\xbc\xaf\x27\x1c"), "7z", "a 7-Zip archive"},
	{[]byte("Rar!"), "rar", "a RAR archive"},
	{[]byte("\x7fELF"), "elf", "a program (ELF executable)"},
	{[]byte("MZ"), "exe", "a Windows program"},
	{[]byte("AT&TFORM"), "djvu", "a DjVu document"},
}

// describe guesses what data is, returning " (it looks like ...)" or "".
func describe(data []byte) string {
	if _, what := sniff(data); what != "" {
		return " (" + what + ")"
	}
	return ""
}

// sniff guesses what data is: an id ("png", "text", ...; the window's
// message code "looks." + id) and an English phrase, or "", "".
func sniff(data []byte) (id, what string) {
	for _, s := range signatures {
		if bytes.HasPrefix(data, s.magic) {
			return s.id, "it looks like " + s.what
		}
	}
	head := data
	if len(head) > 512 {
		head = head[:512]
	}
	trimmed := bytes.TrimLeft(head, "\ufeff \t\r\n")
	if idx := bytes.Index(head, pdfHeader); idx > 0 {
		return "late_header", "a PDF header appears later in the file: it may be damaged"
	}
	lower := bytes.ToLower(trimmed)
	if bytes.HasPrefix(lower, []byte("<!doctype html")) || bytes.HasPrefix(lower, []byte("<html")) {
		return "html", "it looks like a web page: was the download interrupted or blocked?"
	}
	if bytes.HasPrefix(lower, []byte("<?xml")) || bytes.HasPrefix(lower, []byte("<svg")) {
		return "xml", "it looks like an XML or SVG file"
	}
	if looksLikeText(head) {
		return "text", "it looks like a plain text file"
	}
	return "", ""
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
