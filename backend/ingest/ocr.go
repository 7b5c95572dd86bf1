package ingest

import (
	"context"
	"errors"
	"fmt"
	"log"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/ocr"
	"vika/backend/pdf"
)

// ocrOutcome is what OCR made of one target.
type ocrOutcome struct {
	OCRText
	err error
	ran bool // false: not dispatched (the document failed or ran out of time first)
}

// capOCR keeps the first budget.lim.OCRPages targets; the scanned pages
// past them are marked (their text layer, when any, stays).
func capOCR(pages []corpus.Page, targets []OCRTarget, budget *docBudget) []OCRTarget {
	max := budget.lim.OCRPages
	if len(targets) <= max {
		return targets
	}
	for _, t := range targets[max:] {
		if t.Full {
			m := message.New(message.PageOCRCap, "page", t.Page, "limit", max)
			pages[t.Page-1].Problem = &m
		}
	}
	budget.ocrCut = len(targets) - max
	return targets[:max]
}

// recognise OCRs the targets and merges the text into pages: a scanned
// page's text becomes the OCR text, a mixed page's OCR text follows its
// text layer. Up to opts.OCRParallel targets are OCRed at once (each
// holds one image at a time). It stops dispatching, and cancels the
// targets in flight, the moment the document fails (an ErrReader
// outcome) or runs out of its time (the targets not done are marked). It
// returns the number of pages OCRed; an error is the context's or one
// wrapping ErrReader.
//
// The outcomes are merged in the targets' order as they come (a target
// waits for those before it), so that interim, when not nil, can be
// called with the pages as merged so far, with the number of pages OCRed
// and of targets still to come: when the OCR begins if it takes more than
// one round of parallel calls, then every opts.InterimEvery when a target
// more was merged.
func recognise(ctx context.Context, r Reader, pages []corpus.Page, targets []OCRTarget, opts Options, budget *docBudget, step func(done, total int), interim func(ocrPages, pending int)) (int, error) {
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
	every := opts.InterimEvery
	if every <= 0 {
		every = DefaultInterimEvery
	}
	lastInterim := time.Now()
	if interim != nil && total > parallel {
		// More than one round of calls: the text layer need not wait
		// for the first pages recognised.
		interim(0, total)
	}

	// stop ends the OCR of this document without ending ctx: the
	// document failed, or its time is up.
	octx, stop := context.WithCancel(ctx)
	defer stop()
	go budget.watchWall(octx, stop)
	outcomes := make([]ocrOutcome, total)
	var lang ocrLanguage
	next := make(chan int)
	finished := make(chan int, total)
	var wg sync.WaitGroup
	for range min(parallel, total) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if octx.Err() != nil {
					continue // not begun: the document stopped meanwhile
				}
				t := lang.target(targets[i], pages)
				outcomes[i] = recogniseOne(octx, r, t)
				if outcomes[i].err == nil {
					lang.learn(t, outcomes[i].Text)
				}
				finished <- i
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range targets {
			// Between calls, the document may give its place in the
			// queue to one that waits (the calls in flight finish).
			if budget.yield(octx, r) != nil {
				return
			}
			select {
			case next <- i:
			case <-octx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(finished) }()
	done, merged, ocrPages, interimAt := 0, 0, 0, 0
	came := make([]bool, total)
	var failed error
	for i := range finished {
		done++
		step(done, total)
		came[i] = true
		switch o := &outcomes[i]; {
		case o.err != nil && octx.Err() != nil && ctx.Err() == nil:
			o.ran = false // cut short by the document's time, not its own fault
		case errors.Is(o.err, ErrReader):
			o.ran = true
			if failed == nil {
				failed = o.err
				stop()
			}
		default:
			o.ran = true
			if budget.outOfTime() {
				stop()
			}
		}
		if failed != nil {
			continue
		}
		for ; merged < total && came[merged]; merged++ {
			ocrPages += merge(pages, targets[merged], outcomes[merged], opts.Regions, budget)
		}
		if interim != nil && merged > interimAt && merged < total && time.Since(lastInterim) >= every {
			interim(ocrPages, total-merged)
			interimAt, lastInterim = merged, time.Now()
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if failed != nil {
		return 0, failed
	}
	if octx.Err() != nil && !budget.timeUp {
		budget.timeUp, budget.timeWhy = true, "wall"
	}
	for ; merged < total; merged++ { // the targets never dispatched
		ocrPages += merge(pages, targets[merged], outcomes[merged], opts.Regions, budget)
	}
	return ocrPages, nil
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

// maxOCRWords bounds the word boxes of one OCRed page taken from the
// worker (a dense page holds a few thousand).
const maxOCRWords = 50_000

// merge writes the OCR outcome of target t into its page and returns 1
// if the page got OCR text, else 0. A scanned page's lines are placed from
// its OCR words; with regions, its tables are rebuilt from them too.
func merge(pages []corpus.Page, t OCRTarget, o ocrOutcome, regions bool, budget *docBudget) int {
	p := &pages[t.Page-1]
	if !o.ran {
		if t.Full { // a mixed page keeps its text layer
			m := message.New(message.PageDocBudget, "page", t.Page, "limit", budget.timeLimit())
			p.Problem = &m
		}
		return 0
	}
	if o.err != nil {
		// A mixed page keeps its text layer when OCR of its figures
		// fails, unless the language data is missing.
		if t.Full || errors.Is(o.err, ocr.ErrNoLanguageData) {
			p.Problem = ocrProblem(t.Page, o.err)
		}
		return 0
	}
	conf := o.Confidence
	p.OCRConfidence = &conf
	switch {
	case t.Full:
		p.Text = budget.admitOCR(o.Text)
		p.Lines = ocrLines(p.Text, o.Words[:min(len(o.Words), maxOCRWords)], p.Width, p.Height)
		if regions && len(o.Words) > 0 {
			// The scan's tables replace what detection found in its
			// (absent) text layer; its form fields and notes stay (and
			// are counted against the budget again: a few at most).
			p.Regions = append(marksOf(p.Regions), pdf.WordTables(p.Number, p.Width, p.Height, o.Words[:min(len(o.Words), maxOCRWords)])...)
			budget.admitRegions(p)
		}
	case o.Text != "":
		p.Text = strings.TrimRight(p.Text, "\n") + "\n\n" + budget.admitOCR(o.Text)
	}
	return 1
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
