package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"vika/backend/message"
	"vika/backend/pdf"
)

// Annotate writes anns into a copy of the PDF data in a worker
// (pdf.Annotate), at most Config.Workers copies at once, each within four
// page budgets: the bytes are parsed and
// rewritten by MuPDF, so a crash or an overrun costs this copy, never the
// session. lim bounds the file as an add does. The worker's reply is
// checked here too: a PDF, no larger than the original plus what the
// annotations can add.
func (o *Opener) Annotate(ctx context.Context, data []byte, anns []pdf.Annotation, lim pdf.Limits) ([]byte, error) {
	if err := pdf.CheckAnnotations(anns); err != nil {
		return nil, err
	}
	select { // at most cfg.Workers copies at once, each in its worker
	case o.copies <- struct{}{}:
		defer func() { <-o.copies }()
	case <-ctx.Done():
		return nil, message.Wrap(ctx.Err(), message.Cancelled)
	}
	p := o.take()
	if p == nil {
		var err error
		if p, err = startProc(o.cfg, o.fault != nil); err != nil {
			return nil, err
		}
	}
	budget := 4 * o.cfg.PageTimeout
	req := request{Op: opAnnotate, Data: data, Annotations: anns, Opts: options{Limits: lim}, Fault: o.faultFor(opAnnotate, 0)}
	resp, err := p.call(ctx, req, budget+grace(budget))
	switch {
	case ctx.Err() != nil:
		return nil, message.Wrap(ctx.Err(), message.Cancelled)
	case errors.Is(err, errOverBudget):
		return nil, message.Wrap(fmt.Errorf("%w: writing the copy took more than %s", pdf.ErrWrite, budget), message.AnnotateFailed, "detail", "time limit")
	case err != nil:
		return nil, message.Wrap(fmt.Errorf("%w: it crashed the PDF reader (%v)", pdf.ErrWrite, err), message.AnnotateFailed, "detail", "the PDF reader crashed")
	}
	o.keep(p)
	if resp.Err != nil {
		return nil, resp.Err.err()
	}
	if limit := maxCopy(len(data), anns); len(resp.Copy) > limit || !bytes.HasPrefix(resp.Copy, []byte("%PDF-")) {
		return nil, message.Wrap(fmt.Errorf("%w: the PDF reader returned %d bytes that are not the copy", pdf.ErrWrite, len(resp.Copy)),
			message.AnnotateFailed, "detail", "bad reply")
	}
	return resp.Copy, nil
}

// maxCopy is the largest annotated copy accepted of an n-byte PDF: twice
// the original (a whole rewrite of a repaired file), plus 64 KiB an
// annotation (its dictionary, appearance stream and text).
func maxCopy(n int, anns []pdf.Annotation) int {
	return 2*n + (len(anns)+1)<<16
}
