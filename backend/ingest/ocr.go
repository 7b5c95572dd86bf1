package ingest

import (
	"context"
	"errors"
	"fmt"
	"log"
	"runtime/debug"
	"strings"
	"sync"

	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/ocr"
	"vika/backend/pdf"
)

// ocrOutcome is what OCR made of one target.
type ocrOutcome struct {
	OCRText
	err error
}

// recognise OCRs the targets and merges the text into pages: a scanned
// page's text becomes the OCR text, a mixed page's OCR text follows its
// text layer. Up to opts.OCRParallel targets are OCRed at once (each
// holds one image at a time). It returns the number of pages OCRed; an
// error is the context's or one wrapping ErrReader.
func recognise(ctx context.Context, r Reader, pages []corpus.Page, targets []OCRTarget, opts Options, step func(done, total int)) (int, error) {
	if len(targets) == 0 {
		return 0, nil
	}
	if opts.OCR == nil && opts.Opener == nil {
		for _, t := range targets {
			if t.Full {
				m := message.New(message.PageNoOCR, "page", t.Page)
				pages[t.Page-1].Problem = &m
			}
		}
		return 0, nil
	}
	parallel := opts.OCRParallel
	if parallel <= 0 {
		parallel = 2
	}
	total := len(targets)
	step(0, total)

	outcomes := make([]ocrOutcome, total)
	next := make(chan int)
	finished := make(chan struct{}, total)
	var wg sync.WaitGroup
	for range min(parallel, total) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				outcomes[i] = recogniseOne(ctx, r, targets[i])
				finished <- struct{}{}
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range targets {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(finished) }()
	done := 0
	for range finished {
		done++
		step(done, total)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	for _, o := range outcomes {
		if errors.Is(o.err, ErrReader) {
			return 0, o.err
		}
	}
	return merge(pages, targets, outcomes, opts.Regions), nil
}

// recogniseOne OCRs one target. A panic (a bug reached by odd input)
// becomes that target's error and a log line, not the end of the process.
func recogniseOne(ctx context.Context, r Reader, t OCRTarget) (out ocrOutcome) {
	defer func() {
		if v := recover(); v != nil {
			log.Printf("ingest: OCR of page %d panicked: %v\n%s", t.Page, v, debug.Stack())
			out = ocrOutcome{err: fmt.Errorf("OCR of page %d failed on an internal error: %v", t.Page, v)}
		}
	}()
	text, err := r.OCR(ctx, t)
	return ocrOutcome{OCRText: text, err: err}
}

// merge writes the OCR outcomes into their pages and returns how many
// pages got OCR text. A scanned page's lines are placed from its OCR
// words; with regions, its tables are rebuilt from them too.
func merge(pages []corpus.Page, targets []OCRTarget, outcomes []ocrOutcome, regions bool) int {
	n := 0
	for i, t := range targets {
		p := &pages[t.Page-1]
		o := outcomes[i]
		if o.err != nil {
			// A mixed page keeps its text layer when OCR of its figures
			// fails, unless the language data is missing.
			if t.Full || errors.Is(o.err, ocr.ErrNoLanguageData) {
				p.Problem = ocrProblem(t.Page, o.err)
			}
			continue
		}
		conf := o.Confidence
		p.OCRConfidence = &conf
		n++
		switch {
		case t.Full:
			p.Text = o.Text
			p.Lines = ocrLines(o.Text, o.Words, p.Width, p.Height)
			if regions && len(o.Words) > 0 {
				// The scan's tables replace what detection found in its
				// (absent) text layer; its form fields and notes stay.
				p.Regions = append(marksOf(p.Regions), pdf.WordTables(p.Number, p.Width, p.Height, o.Words)...)
			}
		case o.Text != "":
			p.Text = strings.TrimRight(p.Text, "\n") + "\n\n" + o.Text
		}
	}
	return n
}

// marksOf keeps the form and note regions of regions.
func marksOf(regions []corpus.Region) []corpus.Region {
	var out []corpus.Region
	for _, r := range regions {
		if r.Kind == corpus.ChunkForm || r.Kind == corpus.ChunkNote {
			out = append(out, r)
		}
	}
	return out
}
