package ingest

import (
	"context"
	"errors"
	"fmt"
	"image"
	"strings"

	"vika/backend/corpus"
	"vika/backend/ocr"
	"vika/backend/pdf"
)

// ocrTarget is a page that needs OCR: the whole page when it is scanned,
// else the image regions of a mixed page that may hold text.
type ocrTarget struct {
	page    int // 1-based
	full    bool
	regions []pdf.Rect
}

func targetOf(p pdf.Page) (ocrTarget, bool) {
	switch {
	case p.Class.Type == corpus.PageScanned:
		return ocrTarget{page: p.Number, full: true}, true
	case len(p.OCRRegions()) > 0:
		return ocrTarget{page: p.Number, regions: p.OCRRegions()}, true
	}
	return ocrTarget{}, false
}

// ocrOutcome is what OCR made of one target.
type ocrOutcome struct {
	text       string
	confidence float64
	err        error
}

// recognise OCRs the targets and merges the text into pages: a scanned
// page's text becomes the OCR text, a mixed page's OCR text follows its
// text layer. MuPDF is not safe for concurrent use, so this goroutine
// renders one image at a time while up to opts.OCRParallel images are
// recognised in the background. It returns the number of pages OCRed.
func recognise(ctx context.Context, doc *pdf.Document, pages []corpus.Page, targets []ocrTarget, opts Options, step func(done, total int)) (int, error) {
	if len(targets) == 0 {
		return 0, nil
	}
	if opts.OCR == nil {
		for _, t := range targets {
			if t.full {
				pages[t.page-1].Error = "scanned page: OCR is not available"
			}
		}
		return 0, nil
	}
	dpi := opts.OCRDPI
	if dpi <= 0 {
		dpi = ocr.DefaultDPI
	}
	parallel := opts.OCRParallel
	if parallel <= 0 {
		parallel = 2
	}
	total := len(targets)
	step(0, total)

	// pending images are being recognised; each sends on finished.
	outcomes := make([]ocrOutcome, total)
	finished := make(chan struct{}, total)
	pending, done := 0, 0
	collect := func(block bool) {
		for pending > 0 {
			if block {
				<-finished
			} else {
				select {
				case <-finished:
				default:
					return
				}
			}
			pending--
			done++
			step(done, total)
		}
	}
	for i, t := range targets {
		for pending >= parallel { // wait for a free slot
			<-finished
			pending--
			done++
			step(done, total)
		}
		if ctx.Err() != nil {
			break
		}
		imgs, err := renderTarget(doc, t, dpi)
		if err != nil {
			outcomes[i].err = err
			done++
			step(done, total)
			continue
		}
		pending++
		go func() {
			outcomes[i] = recogniseImages(ctx, opts.OCR, imgs)
			finished <- struct{}{}
		}()
		collect(false)
	}
	collect(true)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return merge(pages, targets, outcomes), nil
}

func renderTarget(doc *pdf.Document, t ocrTarget, dpi float64) ([]*image.Gray, error) {
	if t.full {
		img, err := doc.Render(t.page, dpi)
		if err != nil {
			return nil, fmt.Errorf("cannot render the page for OCR: %w", err)
		}
		return []*image.Gray{img}, nil
	}
	imgs := make([]*image.Gray, 0, len(t.regions))
	for _, r := range t.regions {
		img, err := doc.RenderRegion(t.page, r, dpi)
		if err != nil {
			return nil, fmt.Errorf("cannot render an image region for OCR: %w", err)
		}
		imgs = append(imgs, img)
	}
	return imgs, nil
}

// recogniseImages OCRs the images of one target and joins their text; the
// confidence is the mean over words.
func recogniseImages(ctx context.Context, r ocr.Recognizer, imgs []*image.Gray) ocrOutcome {
	var texts []string
	var confSum float64
	var words int
	for _, img := range imgs {
		res, err := r.Recognize(ctx, img)
		if err != nil {
			return ocrOutcome{err: err}
		}
		if t := strings.TrimSpace(res.Text); t != "" {
			texts = append(texts, t)
		}
		confSum += res.Confidence * float64(res.Words)
		words += res.Words
	}
	out := ocrOutcome{text: pdf.CleanText(strings.Join(texts, "\n\n"))}
	if words > 0 {
		out.confidence = confSum / float64(words)
	}
	return out
}

// merge writes the OCR outcomes into their pages and returns how many
// pages got OCR text.
func merge(pages []corpus.Page, targets []ocrTarget, outcomes []ocrOutcome) int {
	n := 0
	for i, t := range targets {
		p := &pages[t.page-1]
		o := outcomes[i]
		if o.err != nil {
			if t.full {
				p.Error = "OCR failed: " + o.err.Error()
			}
			// A mixed page keeps its text layer when OCR of its figures fails.
			if errors.Is(o.err, ocr.ErrNoLanguageData) && !t.full {
				p.Error = "OCR failed: " + o.err.Error()
			}
			continue
		}
		conf := o.confidence
		p.OCRConfidence = &conf
		n++
		switch {
		case t.full:
			p.Text = o.text
			p.Lines = nil
		case o.text != "":
			p.Text = strings.TrimRight(p.Text, "\n") + "\n\n" + o.text
		}
	}
	return n
}
