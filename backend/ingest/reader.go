package ingest

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"strings"
	"sync"
	"time"

	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/ocr"
	"vika/backend/pdf"
)

// Reader is one open document as Run uses it: its pages, read one at a
// time, and the OCR of what they need. Page and OCR report a problem of
// one page in the result or error of that call; an error wrapping
// ErrReader (the reader gave up: repeated crashes) or the context's error
// ends the document. OCR may be called from several goroutines at once.
type Reader interface {
	NumPages() int
	// Truncated reports a file ending without %%EOF.
	Truncated() bool
	// About returns the document's information and outline (nil when it
	// has none or it cannot be read: the document still reads).
	About() (corpus.Meta, []corpus.OutlineEntry)
	// Page reads page n (1-based). A page that cannot be read comes back
	// with Page.Problem set and a nil error.
	Page(ctx context.Context, n int) (PageResult, error)
	// OCR renders the target and recognises its text.
	OCR(ctx context.Context, t OCRTarget) (OCRText, error)
	Close() error
}

// CropStopper is a Reader that can stop making figure crops, once the
// document has spent its crop budget: the figures of later pages come
// without one, and their rendering is saved.
type CropStopper interface {
	StopCrops()
}

// Parker is a Reader that can let its idle workers go while its document
// waits for its place in the queue again (Queue): Park from then on hands
// every worker that finishes a call to others, until Unpark (the place is
// back), after which its workers stay with it again.
type Parker interface {
	Park()
	Unpark()
}

// Opener opens the documents Run processes.
type Opener interface {
	Open(ctx context.Context, data []byte, opts Options) (Reader, error)
}

// ErrReader means the reader gave up on a document (for example after
// its worker crashed or ran over budget several times).
var ErrReader = message.Register(errors.New("the PDF reader gave up on this document"), message.ReaderGaveUp)

// ErrDocTime means a document ran out of its wall or CPU time
// (Budget.DocTime, DocCPU) before any of its pages could be read.
var ErrDocTime = errors.New("the document ran out of its time")

// PageResult is one page read: its corpus form (without DocID) and what
// of it needs OCR.
type PageResult struct {
	Page   corpus.Page
	Target OCRTarget
	// Over: the page ran over its time budget (Page.Problem says so).
	Over bool
}

// OCRTarget is a page that needs OCR: the whole page when it is scanned,
// else the image regions of a mixed page that may hold text. Page 0: none.
type OCRTarget struct {
	Page    int // 1-based
	Full    bool
	Regions []pdf.Rect
	// ScanPPI is a scanned page's image resolution (pdf.Class.ScanPPI):
	// between MinScanPPI and the OCR resolution, the page is rendered at
	// it rather than upsampled.
	ScanPPI float64
	// Lang is the language to recognise the target in (an ISO 639-1
	// code), when recognise knows it; empty: all of OCR's languages.
	Lang string
	// Width and Height are a scanned page's size in points (they bound
	// its render: renderDPI).
	Width, Height float64
}

// MinScanPPI is the lowest scan resolution a page is rendered at for
// OCR; below it, the page is upsampled to the OCR resolution. The made
// French scan (204 ppi) read at its own resolution costs half the time
// of 300 DPI, at 1.91% CER against 1.17% (TestLessOCR).
const MinScanPPI = 200

// OCRText is what OCR made of one target: the cleaned text and the mean
// word confidence.
type OCRText struct {
	Text       string
	Confidence float64
	// Words are the words of a whole page (a Full target) in page
	// points, in reading order: they place the page's lines for the
	// viewer's highlight and, when region detection is on, scanned
	// tables are rebuilt from them.
	Words []pdf.Word
}

func targetOf(p pdf.Page) OCRTarget {
	switch {
	case p.Class.Type == corpus.PageScanned:
		return OCRTarget{Page: p.Number, Full: true, ScanPPI: p.Class.ScanPPI, Width: p.Width, Height: p.Height}
	case len(p.OCRRegions()) > 0:
		return OCRTarget{Page: p.Number, Regions: p.OCRRegions()}
	}
	return OCRTarget{}
}

// InProcess opens documents in this process with package pdf and
// opts.OCR: the reader the sandbox's worker runs, and the baseline its
// cost is measured against. Hostile files can hang or crash the process
// that uses it directly (deadlines only bound MuPDF's drawing).
var InProcess Opener = inProcess{}

type inProcess struct{}

func (inProcess) Open(ctx context.Context, data []byte, opts Options) (Reader, error) {
	doc, err := pdf.Open(data, opts.Limits)
	if err != nil {
		return nil, err
	}
	dpi := opts.OCRDPI
	if dpi <= 0 {
		dpi = ocr.DefaultDPI
	}
	meta := doc.Meta()
	outline, _ := doc.Outline() // an unreadable outline loses only the outline
	return &local{doc: doc, meta: meta, outline: outline, rec: opts.OCR, dpi: dpi, pageTime: opts.PageTimeout, ocrTime: opts.OCRTimeout, regions: opts.Regions}, nil
}

// local is the in-process Reader. MuPDF is not safe for concurrent use:
// mu serialises its calls, while recognition runs outside the lock, so one
// OCR call renders while another recognises. Regions are rendered and
// recognised one at a time: an OCR call holds one image at a time.
type local struct {
	mu                sync.Mutex
	doc               *pdf.Document
	meta              corpus.Meta
	outline           []corpus.OutlineEntry
	rec               ocr.Recognizer
	dpi               float64
	pageTime, ocrTime time.Duration
	regions           bool // detect tables, figures and formulas
}

// StopCrops makes the next pages' figures come without crops.
func (l *local) StopCrops() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.doc.SkipCrops()
}

func (l *local) NumPages() int                               { return l.doc.NumPages() }
func (l *local) Truncated() bool                             { return l.doc.Truncated() }
func (l *local) About() (corpus.Meta, []corpus.OutlineEntry) { return l.meta, l.outline }

func deadline(d time.Duration) time.Time {
	if d <= 0 {
		return time.Time{}
	}
	return time.Now().Add(d)
}

func (l *local) Page(ctx context.Context, n int) (PageResult, error) {
	if err := ctx.Err(); err != nil {
		return PageResult{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.doc.SetDeadline(deadline(l.pageTime))
	p, err := l.doc.Page(n)
	if err == nil && l.regions {
		// Regions are extras: a page whose detection fails or runs out
		// of time keeps its text and the regions found so far.
		_ = l.doc.DetectRegions(&p)
	}
	page := p.Corpus("")
	page.Number = n
	if err != nil {
		page.Problem = pageProblem(n, err, l.pageTime)
		return PageResult{Page: page, Over: errors.Is(err, pdf.ErrTimeout)}, nil
	}
	return PageResult{Page: page, Target: targetOf(p)}, nil
}

func (l *local) OCR(ctx context.Context, t OCRTarget) (OCRText, error) {
	if l.rec == nil {
		return OCRText{}, errors.New("OCR is not available")
	}
	if l.ocrTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, l.ocrTime)
		defer cancel()
	}
	end, _ := ctx.Deadline()
	regions := t.Regions
	if t.Full {
		regions = []pdf.Rect{{}} // the empty Rect stands for the whole page
	}
	dpi := renderDPI(t, l.dpi)
	hints := ocr.Hints{Lang: t.Lang, DPI: int(math.Round(dpi))}
	var texts []string
	var confSum float64
	var words int
	var boxes []pdf.Word
	for _, r := range regions {
		img, err := l.render(t.Page, r, dpi, end)
		if err != nil {
			return OCRText{}, err
		}
		var res ocr.Result
		if t.Full {
			res, boxes, err = readPage(ctx, l.rec, img, hints, dpi)
		} else {
			res, err = l.rec.Recognize(ctx, img, hints)
		}
		if err != nil {
			return OCRText{}, err
		}
		if s := strings.TrimSpace(res.Text); s != "" {
			texts = append(texts, s)
		}
		confSum += res.Confidence * float64(res.Words)
		words += res.Words
	}
	out := OCRText{Text: pdf.CleanText(strings.Join(texts, "\n\n")), Words: boxes}
	if words > 0 {
		out.Confidence = confSum / float64(words)
	}
	return out, nil
}

// render draws region r (the whole page if r is empty) of page n at dpi.
func (l *local) render(n int, r pdf.Rect, dpi float64, end time.Time) (*image.Gray, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.doc.SetDeadline(end)
	if r.Empty() {
		img, err := l.doc.Render(n, dpi)
		if err != nil {
			return nil, fmt.Errorf("cannot render the page for OCR: %w", err)
		}
		return img, nil
	}
	img, err := l.doc.RenderRegion(n, r, dpi)
	if err != nil {
		return nil, fmt.Errorf("cannot render an image region for OCR: %w", err)
	}
	return img, nil
}

func (l *local) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.doc.Close()
}
