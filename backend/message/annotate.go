package message

// Annotate codes: why no copy of a PDF with the student's highlights and
// notes could be written (pdf.Annotate).
const (
	AnnotateEncrypted = "annotate.encrypted" // the PDF is encrypted or password-protected
	AnnotateCorrupt   = "annotate.corrupt"   // the PDF is damaged: MuPDF cannot edit it
	AnnotateInvalid   = "annotate.invalid"   // index, page, why: an annotation that cannot be written (a bug or an edited file)
	AnnotateTooMany   = "annotate.too_many"  // count, limit
	AnnotateFailed    = "annotate.failed"    // detail (English only): MuPDF could not write the copy
)

func init() {
	english[AnnotateEncrypted] = fixed("This PDF is encrypted: Vika does not write your highlights and notes into it. Export them instead.")
	english[AnnotateCorrupt] = fixed("This PDF is damaged: Vika cannot write a copy of it with your highlights and notes.")
	english[AnnotateInvalid] = func(p Params) string {
		return "Highlight or note " + str(p, "index") + " (page " + str(p, "page") + ") cannot be written into the PDF (" + str(p, "why") + ")."
	}
	english[AnnotateTooMany] = func(p Params) string {
		return "Too many highlights and notes for one copy: " + str(p, "count") + ", at most " + str(p, "limit") + "."
	}
	english[AnnotateFailed] = func(p Params) string {
		return "The copy with your highlights and notes could not be written (" + str(p, "detail") + ")."
	}
}
