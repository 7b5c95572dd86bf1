package ingest

import (
	"context"
	"time"
	"unicode/utf8"

	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/pdf"
)

// Budgets of what one document may bring into the app process, checked as
// each page's reply arrives from the worker: the worker bounds the time and
// memory of a page, not what pages add up to (a form of a million
// characters drawn on every page is cheap to read and ruinous to chunk and
// embed; dozens of captioned figures sharing one incompressible image make
// gigabytes of crops). A real page holds a few thousand characters and a
// few figures; a 3,000-page book some ten million characters.
const (
	// MaxPageChars is the most characters kept of one page; the rest is
	// dropped with a notice on the page.
	MaxPageChars = 200_000
	// MaxDocChars is the most characters read from one document; the
	// pages after it are not read (they are marked), and the document is
	// added with a warning.
	MaxDocChars = 16_000_000
	// MaxPageRegions is the most tables, figures, formulas, form fields
	// and notes kept of one page, MaxDocRegions of one document.
	MaxPageRegions = 200
	MaxDocRegions  = 20_000
	// MaxPageCropBytes is the most figure-crop bytes kept of one page (the
	// worker stops cropping there too), MaxDocCropBytes of one document:
	// past them figures keep their text and lose their picture.
	MaxPageCropBytes = pdf.MaxPageCropBytes
	MaxDocCropBytes  = 128 << 20
	// MaxDocPassages is the most passages (chunks of every kind) kept of
	// one document.
	MaxDocPassages = 100_000
	// MaxOCRPages is the most pages of one document sent to OCR.
	MaxOCRPages = 500
	// DocTime bounds the wall time of reading and OCRing one document,
	// DocCPU the CPU time its workers spend on it.
	DocTime = 30 * time.Minute
	DocCPU  = 60 * time.Minute
)

// Budget holds the limits of Options.Budget; zero fields take the
// constants above.
type Budget struct {
	PageChars, DocChars         int
	PageRegions, DocRegions     int
	PageCropBytes, DocCropBytes int
	DocPassages                 int
	OCRPages                    int
	DocTime, DocCPU             time.Duration
}

func (b Budget) withDefaults() Budget {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&b.PageChars, MaxPageChars)
	def(&b.DocChars, MaxDocChars)
	def(&b.PageRegions, MaxPageRegions)
	def(&b.DocRegions, MaxDocRegions)
	def(&b.PageCropBytes, MaxPageCropBytes)
	def(&b.DocCropBytes, MaxDocCropBytes)
	def(&b.DocPassages, MaxDocPassages)
	def(&b.OCRPages, MaxOCRPages)
	if b.DocTime <= 0 {
		b.DocTime = DocTime
	}
	if b.DocCPU <= 0 {
		b.DocCPU = DocCPU
	}
	return b
}

// CPUCounter is a Reader that knows the CPU time spent on its document
// (the sandbox's, summed over its workers).
type CPUCounter interface {
	CPU() time.Duration
}

// docBudget counts what a document brings as its pages arrive.
type docBudget struct {
	lim      Budget
	start    time.Time
	place    *Place               // the document's place in the session's queue; nil without one
	cpu      func() time.Duration // nil: not counted
	stop     func()               // stops the reader's crops; nil when it cannot
	spent    bool                 // the document's crop bytes are spent
	chars    int                  // characters the document may still bring
	regions  int                  // regions it may still bring
	crops    int                  // crop bytes it may still bring
	over     int                  // the first page not read (text budget), 0 while within it
	cut      int                  // the first page whose text was cut, 0 for none
	timeUp   bool                 // the document ran out of its wall or CPU time
	timeWhy  string               // "wall" or "cpu"
	ocrCut   int                  // OCR targets over the cap
	regCut   int                  // regions dropped
	cropCut  int                  // figures that lost their crop
	passages int                  // passages dropped
	ocrText  int                  // OCR texts cut
}

func newDocBudget(lim Budget, r Reader, place *Place) *docBudget {
	lim = lim.withDefaults()
	b := &docBudget{lim: lim, start: time.Now(), place: place, chars: lim.DocChars, regions: lim.DocRegions, crops: lim.DocCropBytes}
	if c, ok := r.(CPUCounter); ok {
		b.cpu = c.CPU
	}
	if s, ok := r.(CropStopper); ok {
		b.stop = s.StopCrops
	}
	return b
}

// elapsed is the wall time the document has read for: the time it held
// its place in the queue (waiting for it is not counted), or since it
// started without a queue. It is safe to call from any goroutine.
func (b *docBudget) elapsed() time.Duration {
	if b.place != nil {
		return b.place.Held()
	}
	return time.Since(b.start)
}

// yield gives the document's place in the queue up when it has read for
// its share while another document waits, and waits for it again; the
// reader's idle workers go meanwhile (Parker). It returns ctx's error.
func (b *docBudget) yield(ctx context.Context, r Reader) error {
	p, _ := r.(Parker)
	parked := false
	err := b.place.Yield(ctx, func() {
		if p != nil {
			p.Park()
			parked = true
		}
	})
	if parked && err == nil {
		p.Unpark() // not at the next call: one dispatched before Park would undo it while the document waits
	}
	return err
}

// watchWall calls stop once the document has read for its wall time,
// or returns when ctx ends.
func (b *docBudget) watchWall(ctx context.Context, stop func()) {
	for {
		left := b.lim.DocTime - b.elapsed()
		if left <= 0 {
			stop()
			return
		}
		// While the document waits for its place its held time stands
		// still: never wake more often than this to look again.
		t := time.NewTimer(max(left, 100*time.Millisecond))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// outOfTime reports whether the document has used its wall or CPU time.
func (b *docBudget) outOfTime() bool {
	if b.timeUp {
		return true
	}
	switch {
	case b.elapsed() >= b.lim.DocTime:
		b.timeWhy = "wall"
	case b.cpu != nil && b.cpu() >= b.lim.DocCPU:
		b.timeWhy = "cpu"
	default:
		return false
	}
	b.timeUp = true
	return true
}

// timeLimit is the limit the document ran out of, for its notices.
func (b *docBudget) timeLimit() string {
	if b.timeWhy == "cpu" {
		return b.lim.DocCPU.String()
	}
	return b.lim.DocTime.String()
}

// admit bounds page, which just arrived, and reports whether the document
// is still within its text budget (false: this page and the next are not
// read).
func (b *docBudget) admit(page *corpus.Page) bool {
	if b.over > 0 {
		b.skip(page)
		return false
	}
	if max := b.lim.PageChars; len(page.Text) > max && utf8.RuneCountInString(page.Text) > max {
		page.Text = cutRunes(page.Text, max)
		page.Lines = keepLines(page.Lines, max)
		if b.cut == 0 {
			b.cut = page.Number
		}
	}
	page.Links = boundLinks(page.Links, page.Number)
	n := utf8.RuneCountInString(page.Text)
	if n > b.chars {
		b.over = page.Number
		b.skip(page)
		return false
	}
	b.chars -= n
	b.admitRegions(page)
	return true
}

// admitOCR bounds the OCR text of a page like a page's text: within the
// page's characters and what the document may still bring.
func (b *docBudget) admitOCR(text string) string {
	n := utf8.RuneCountInString(text)
	if keep := min(b.lim.PageChars, b.chars); n > keep {
		text, n = cutRunes(text, keep), keep
		b.ocrText++
	}
	b.chars -= n
	return text
}

// admitRegions keeps a page's regions within the page's and the
// document's counts, and their crops within the page's and the
// document's bytes (a figure past them keeps its text, not its picture).
func (b *docBudget) admitRegions(page *corpus.Page) {
	keep := min(len(page.Regions), b.lim.PageRegions, b.regions)
	b.regCut += len(page.Regions) - keep
	page.Regions = page.Regions[:keep]
	b.regions -= keep
	pageCrops := b.lim.PageCropBytes
	for i := range page.Regions {
		r := &page.Regions[i]
		r.Page = page.Number // the page number is ours, not the worker's
		if len(r.Image) == 0 {
			if b.spent && r.Kind == corpus.ChunkFigure {
				b.cropCut++ // not cropped: the reader was told the crops were spent
			}
			continue
		}
		if n := len(r.Image); n > pageCrops || n > b.crops {
			r.Image = nil
			b.cropCut++
			if n > b.crops && !b.spent {
				b.spent = true
				if b.stop != nil {
					b.stop() // the reader stops making crops
				}
			}
			continue
		}
		pageCrops -= len(r.Image)
		b.crops -= len(r.Image)
	}
}

// skip empties a page the document's text budget leaves unread.
func (b *docBudget) skip(page *corpus.Page) {
	m := message.New(message.PageOverBudget, "page", page.Number, "limit", b.lim.DocChars)
	b.mark(page, m)
}

// mark empties page and gives it m as its problem.
func (b *docBudget) mark(page *corpus.Page, m message.Message) {
	*page = corpus.Page{DocID: page.DocID, Number: page.Number, Width: page.Width, Height: page.Height, Type: page.Type}
	page.Problem = &m
}

// capPassages keeps the first DocPassages chunks.
func (b *docBudget) capPassages(chunks []corpus.Chunk) []corpus.Chunk {
	if len(chunks) > b.lim.DocPassages {
		b.passages = len(chunks) - b.lim.DocPassages
		chunks = chunks[:b.lim.DocPassages]
	}
	return chunks
}

// warning is the document's warning when one of its budgets cut it, else
// nil; a document has one warning, the first that applies here.
func (b *docBudget) warning(pages []corpus.Page) *message.Message {
	var m message.Message
	switch {
	case b.timeUp:
		n := 0
		for _, p := range pages {
			if p.Problem != nil && p.Problem.Code == message.PageDocBudget {
				n++
			}
		}
		m = message.New(message.DocBudget, "pages", n, "limit", b.timeLimit())
	case b.over > 0:
		m = message.New(message.TextBudget, "pages", b.over-1, "limit", b.lim.DocChars)
	case b.ocrCut > 0:
		m = message.New(message.OCRCap, "pages", b.ocrCut, "limit", b.lim.OCRPages)
	case b.cut > 0:
		m = message.New(message.PageTextCut, "page", b.cut, "limit", b.lim.PageChars)
	case b.regCut > 0 || b.cropCut > 0 || b.passages > 0 || b.ocrText > 0:
		m = message.New(message.RegionBudget, "regions", b.regCut, "crops", b.cropCut, "passages", b.passages)
	default:
		return nil
	}
	return &m
}

// boundLinks keeps the first pdf.MaxPageMarks links of a page whose
// targets are at most pdf.MaxLinkURI characters, each placed on page:
// the worker bounds them, and the app does not rely on that.
func boundLinks(links []corpus.Link, page int) []corpus.Link {
	links = links[:min(len(links), pdf.MaxPageMarks)]
	kept := links[:0]
	for _, l := range links {
		if l.URI != "" && utf8.RuneCountInString(l.URI) <= pdf.MaxLinkURI {
			l.Page = page
			kept = append(kept, l)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return kept
}

// cutRunes is s's first n characters.
func cutRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// keepLines keeps the lines (rune offsets) within the first end
// characters of the page text.
func keepLines(lines []corpus.Line, end int) []corpus.Line {
	for i := range lines {
		if lines[i].Start >= end {
			return lines[:i]
		}
		lines[i].End = min(lines[i].End, end)
	}
	return lines
}

// WithinBudget reports whether a processed document that did not come from
// the worker (a course file's, or the document cache's) keeps the budgets
// an ingest would have held it to: at most maxPages pages (0: no limit),
// MaxPageChars a page, MaxDocChars in all, MaxPageRegions a page and
// MaxDocRegions in all, MaxPageCropBytes of crops a page and
// MaxDocCropBytes in all, MaxDocPassages passages, and its passages' text
// at most chunkShare times the document's budget (passages overlap and
// add the tables' and figures' text; real ones hold well under twice the
// page text).
func WithinBudget(pages []corpus.Page, chunks []corpus.Chunk, maxPages int) bool {
	if maxPages > 0 && len(pages) > maxPages || len(chunks) > MaxDocPassages {
		return false
	}
	total, regions, crops := 0, 0, 0
	for _, p := range pages {
		n := utf8.RuneCountInString(p.Text)
		if n > MaxPageChars || len(p.Regions) > MaxPageRegions || len(p.Links) > pdf.MaxPageMarks {
			return false
		}
		total += n
		regions += len(p.Regions)
		pageCrops := 0
		for _, r := range p.Regions {
			pageCrops += len(r.Image)
		}
		if pageCrops > MaxPageCropBytes {
			return false
		}
		crops += pageCrops
	}
	if total > MaxDocChars || regions > MaxDocRegions || crops > MaxDocCropBytes {
		return false
	}
	passages := 0
	for _, c := range chunks {
		passages += len(c.Text)
		if passages > chunkShare*MaxDocChars {
			return false
		}
	}
	return true
}

// chunkShare bounds a document's passage text against its budget.
const chunkShare = 4
