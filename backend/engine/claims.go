package engine

import (
	"context"
	"encoding/json"
	"log"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"time"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/pdf"
)

// What a course file claims is checked against the PDF it carries (issue
// 43). Its PDF's bytes are verified by their SHA-256 (package course);
// everything else in it is a claim. Opening a course therefore reads its
// PDF again here, in the PDF workers, as an add does: text layer, lines,
// boxes, regions, links, outline, the document's fields and its passages
// are all this session's own, never the course's. Only the costly part is
// reused, and only once checked:
//
//   - the OCR text of a scanned page (or of a mixed page's images): the
//     worker is asked for the OCR of every page that needs it, and the
//     course's text of that page answers instead of the recogniser,
//     except for a sample of pages (the cited ones, when the caller names
//     them, and a few others at random) that are recognised for real and
//     must read as claimed. One that does not makes the whole PDF read
//     again from its bytes, claims ignored;
//   - the vectors, when the course's passages are exactly the passages
//     read here and its models are this session's, and a sample of them
//     embedded again agrees (claimVectorsChecked).
//
// Nothing reused from a course enters the document cache: a document
// whose OCR text came from a course is not cached, nor are its vectors,
// the models' outputs about it or its study guides (claimed), whether or
// not they were computed here; nor are the outputs a course gives of any
// document (outputs.go).

// minOCRSample and ocrSampleShare are how many OCR claims of a document
// are checked at random beyond the cited pages: at least minOCRSample,
// else ocrSampleShare of them (a variable: tests set it).
var minOCRSample = 2

const ocrSampleShare = 0.05

// minVectorCosine is how close a course's vector must be to the one
// embedded here for the course's vectors to be used.
const minVectorCosine = 0.99

// vectorSample is how many of a course's passage vectors are embedded
// again to check them.
const vectorSample = 3

// ocrClaims returns the course's OCR text by page (pages the course says
// were OCRed), nil when there is none.
func (p *courseEntry) ocrClaims() map[int]corpus.Page {
	var out map[int]corpus.Page
	for _, pg := range p.doc.Pages {
		if pg.OCRConfidence == nil {
			continue
		}
		if out == nil {
			out = map[int]corpus.Page{}
		}
		out[pg.Number] = pg
	}
	return out
}

// checkSample picks the pages of claims whose OCR is done for real: those
// in cited, and a random sample of the others.
func checkSample(claims map[int]corpus.Page, cited []int) map[int]bool {
	out := map[int]bool{}
	for _, n := range cited {
		if _, ok := claims[n]; ok {
			out[n] = true
		}
	}
	var rest []int
	for n := range claims {
		if !out[n] {
			rest = append(rest, n)
		}
	}
	k := max(minOCRSample, int(math.Ceil(ocrSampleShare*float64(len(claims)))))
	rand.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	for _, n := range rest[:min(k, len(rest))] {
		out[n] = true
	}
	return out
}

// ingestClaimed reads the PDF in data as an add without a course does
// (with the cache when it is on), with the OCR claims of given answering
// for the recogniser outside a checked sample. derived reports that
// nothing of the result came from the course (no claim was used): only
// then is it kept in the cache.
func (e *Engine) ingestClaimed(ctx context.Context, given *courseEntry, name string, data []byte, opts ingest.Options, progress func(ingest.Progress)) (res ingest.Result, hit, derived bool, err error) {
	claims := given.ocrClaims()
	if len(claims) == 0 {
		return e.source(given.doc.Doc.ID).read(ctx, e, name, data, opts, progress)
	}
	inner := opts.Opener
	if inner == nil {
		inner = ingest.InProcess
	}
	check := checkSample(claims, given.cited)
	co := &claimOpener{inner: inner, claims: claims, check: check}
	o := opts
	o.Opener = co
	// No interim commits: the course's OCR text is searchable only once
	// its sample has read as claimed (after Run), never while it is read.
	o.Interim = nil
	res, err = ingest.Run(ctx, name, data, o, progress)
	if err != nil {
		return res, false, false, err
	}
	if co.used.Load() == 0 {
		// Every page that needed OCR was checked: all read here.
		return res, false, true, nil
	}
	for n := range check {
		if n > len(res.Pages) || res.Pages[n-1].OCRConfidence == nil || res.Pages[n-1].Text != claims[n].Text {
			log.Printf("course: %s: the OCR of page %d does not read as the course says: read again from the PDF", name, n)
			return e.source(given.doc.Doc.ID).read(ctx, e, name, data, opts, progress)
		}
	}
	return res, false, false, nil
}

// claimOpener opens documents whose OCR claims answer for the recogniser
// outside check.
type claimOpener struct {
	inner  ingest.Opener
	claims map[int]corpus.Page
	check  map[int]bool
	used   atomic.Int64 // claims used
}

func (o *claimOpener) Open(ctx context.Context, data []byte, opts ingest.Options) (ingest.Reader, error) {
	r, err := o.inner.Open(ctx, data, opts)
	if err != nil {
		return nil, err
	}
	return &claimReader{Reader: r, o: o, layer: map[int]string{}}, nil
}

// claimReader is a Reader whose OCR answers from the claims.
type claimReader struct {
	ingest.Reader
	o     *claimOpener
	layer map[int]string // text layer of the pages read; Page is called from Run's goroutine only, before their OCR
}

func (r *claimReader) Page(ctx context.Context, n int) (ingest.PageResult, error) {
	res, err := r.Reader.Page(ctx, n)
	if err == nil {
		r.layer[n] = res.Page.Text
	}
	return res, err
}

func (r *claimReader) OCR(ctx context.Context, t ingest.OCRTarget) (ingest.OCRText, error) {
	if out, ok := r.claimed(t); ok {
		r.o.used.Add(1)
		return out, nil
	}
	return r.Reader.OCR(ctx, t)
}

// claimed is the course's OCR of target t, when it has one for a page
// outside the check.
func (r *claimReader) claimed(t ingest.OCRTarget) (ingest.OCRText, bool) {
	p, ok := r.o.claims[t.Page]
	if !ok || r.o.check[t.Page] || p.OCRConfidence == nil {
		return ingest.OCRText{}, false
	}
	conf := *p.OCRConfidence
	if t.Full {
		return ingest.OCRText{Text: p.Text, Confidence: conf, Words: claimedWords(p)}, true
	}
	// A mixed page's OCR text follows its text layer (read here).
	head := strings.TrimRight(r.layer[t.Page], "\n") + "\n\n"
	if !strings.HasPrefix(p.Text, head) {
		return ingest.OCRText{}, false
	}
	return ingest.OCRText{Text: p.Text[len(head):], Confidence: conf}, true
}

// claimedWords are the words of a claimed OCR page's lines, each line's
// box shared among its words by their place in it: the lines
// ingest places from them (within the page) are the claimed lines, in
// text order.
func claimedWords(p corpus.Page) []pdf.Word {
	runes := []rune(p.Text)
	var out []pdf.Word
	prev := 0
	for i, l := range p.Lines {
		if l.Start < prev || l.End > len(runes) || l.Start >= l.End {
			continue // out of order or range: left out
		}
		prev = l.End
		line := runes[l.Start:l.End]
		x0, x1 := l.BBox[0], l.BBox[2]
		per := (x1 - x0) / float64(len(line))
		for _, w := range wordSpans(line) {
			out = append(out, pdf.Word{Text: string(line[w[0]:w[1]]), Line: i, Para: l.Block,
				Box: pdf.Rect{X0: x0 + per*float64(w[0]), Y0: l.BBox[1], X1: x0 + per*float64(w[1]), Y1: l.BBox[3]}})
		}
	}
	return out
}

// wordSpans are the rune spans of the space-separated words of line.
func wordSpans(line []rune) [][2]int {
	var out [][2]int
	start := -1
	for i, c := range append(line[:len(line):len(line)], ' ') { // a copy: line shares its runes with the next
		switch {
		case c == ' ' || c == '\n' || c == '\t':
			if start >= 0 {
				out = append(out, [2]int{start, i})
				start = -1
			}
		case start < 0:
			start = i
		}
	}
	return out
}

// claimVectorsChecked reports whether the course's vectors (vecs, figs)
// may stand for res's: its passages are exactly res's (read here), and a
// sample of them embedded again by set's models agrees.
func claimVectorsChecked(ctx context.Context, set *modelSet, given *courseEntry, res ingest.Result, vecs [][]float32, figs figureVecs) bool {
	a, err1 := json.Marshal(given.doc.Chunks)
	b, err2 := json.Marshal(res.Chunks)
	if err1 != nil || err2 != nil || string(a) != string(b) {
		return false
	}
	if len(res.Chunks) == 0 {
		return true
	}
	idx := rand.Perm(len(res.Chunks))[:min(vectorSample, len(res.Chunks))]
	sample := make([]corpus.Chunk, len(idx))
	for i, j := range idx {
		sample[i] = res.Chunks[j]
	}
	again, err := set.ret.Embed(ctx, sample, nil)
	if err != nil || len(again) != len(sample) {
		return false
	}
	for i, j := range idx {
		if !near(again[i], vecs[j]) {
			return false
		}
	}
	if len(figs.chunks) > 0 {
		k := rand.IntN(len(figs.chunks))
		again, err := figureVectors(ctx, set.loadedModels, figs.chunks[k:k+1], pageRegions(res.Pages))
		if err != nil || len(again.vecs) != 1 || !near(again.vecs[0], figs.vecs[k]) {
			return false
		}
	}
	return true
}

// near reports whether a and b are vectors of one length at a cosine of at
// least minVectorCosine.
func near(a, b []float32) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return aa > 0 && bb > 0 && ab/math.Sqrt(aa*bb) >= minVectorCosine
}

// markClaimed records whether document id holds text a course claimed (the
// models' outputs about it and its study guides are then not cached).
func (e *Engine) markClaimed(id string, claimed bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.claimed == nil {
		e.claimed = map[string]bool{}
	}
	if claimed {
		e.claimed[id] = true
	} else {
		delete(e.claimed, id)
	}
}

func (e *Engine) isClaimed(id string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.claimed[id]
}

// The Reader's optional parts, passed on (a no-op, or zero CPU, when the
// wrapped one has none).

func (r *claimReader) StopCrops() {
	if s, ok := r.Reader.(ingest.CropStopper); ok {
		s.StopCrops()
	}
}

func (r *claimReader) Park() {
	if p, ok := r.Reader.(ingest.Parker); ok {
		p.Park()
	}
}

func (r *claimReader) Unpark() {
	if p, ok := r.Reader.(ingest.Parker); ok {
		p.Unpark()
	}
}

func (r *claimReader) CPU() time.Duration {
	if c, ok := r.Reader.(ingest.CPUCounter); ok {
		return c.CPU()
	}
	return 0
}
