package message

// Conversion codes: a file that is not a PDF (package convert). format
// is the file's format ("pptx", "odt", "epub", "png", ...).
const (
	// NeedsOffice: an Office format only LibreOffice converts, and it is
	// not installed.
	NeedsOffice = "convert.needs_office"
	// OfficeFailed: LibreOffice could not convert the file, or ran over
	// its time or memory (detail: what it said).
	OfficeFailed = "convert.office_failed"
	// Reflowed, a warning: an Office file read without LibreOffice by
	// MuPDF's handler, as text on pages of its own (slides run together).
	Reflowed = "convert.reflowed"
	// Unreadable: MuPDF could not read the file; TooSlow: it ran over
	// its time reading it.
	Unreadable = "convert.unreadable"
	TooSlow    = "convert.too_slow"
)

func init() {
	english[NeedsOffice] = func(p Params) string {
		return "Vika converts " + str(p, "format") + " files with LibreOffice, which is not installed: install LibreOffice (on Debian: sudo apt install libreoffice-impress-nogui libreoffice-writer-nogui), or save the file as PDF."
	}
	english[OfficeFailed] = func(p Params) string {
		return "LibreOffice could not convert this " + str(p, "format") + " file: " + str(p, "detail")
	}
	english[Unreadable] = func(p Params) string { return "This " + str(p, "format") + " file is damaged or cannot be read." }
	english[TooSlow] = func(p Params) string {
		return "This " + str(p, "format") + " file took too long to read and was stopped."
	}
	english[Reflowed] = func(p Params) string {
		return "Read without LibreOffice: the text of this " + str(p, "format") + " file only, on pages of its own (slides run together, page numbers differ). Install LibreOffice to keep its slides and pages."
	}
}
