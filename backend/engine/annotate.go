package engine

import (
	"context"
	"fmt"

	"vika/backend/message"
	"vika/backend/pdf"
)

// AnnotatedCopy returns a copy of a document's PDF with anns written as
// standard annotations (highlights and text notes) that other readers
// show, written by MuPDF in a PDF worker (sandbox.Opener.Annotate). The
// session's document is not changed. corpus.ErrNotFound when the
// document is not in the session; an annotation on a page the document
// does not have, or otherwise malformed, fails with pdf.ErrAnnotation;
// an encrypted PDF with pdf.ErrEncrypted (code annotate.encrypted).
func (e *Engine) AnnotatedCopy(ctx context.Context, docID string, anns []pdf.Annotation) ([]byte, error) {
	doc, data, err := e.DocumentFile(ctx, docID)
	if err != nil {
		return nil, err
	}
	if err := pdf.CheckAnnotations(anns); err != nil {
		return nil, err
	}
	for i, a := range anns {
		if a.Page > doc.Pages {
			return nil, message.Wrap(fmt.Errorf("%w: annotation %d is on page %d of %d", pdf.ErrAnnotation, i+1, a.Page, doc.Pages),
				message.AnnotateInvalid, "index", i+1, "page", a.Page, "why", "page")
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(e.ctx, cancel)() // Close ends the copy: its worker is killed
	return e.reader.Annotate(ctx, data, anns, e.opts.Limits)
}
