package ingest

import (
	"context"
	"sync"
	"time"
)

// ReadShare is how long a document reads (its pages and OCR) while
// another waits before it gives its place up: a long document never holds
// the documents added after it for much longer than this. A course pack's
// text-only PDFs read in a second or two each: at a minute, then at ten
// seconds, they waited behind two scans being OCRed (dropping the ten
// shared PDFs at once, the last text-only PDF was searchable after 65 s,
// then 25 s; at three seconds, 8 s, the scans' reading as fast). A
// document that gives its place up keeps its read so far and its workers
// go back to the pool, so sharing costs little (the PDF workers' CPU time
// of the drop: 116.6 s at 10 s, 117.1 s at 3 s).
const ReadShare = 3 * time.Second

// Queue shares the reading of documents (Run's pages and OCR, in the PDF
// workers) between the adds of a session: at most n documents read at
// once, each holding a Place. A document that has held its place for the
// queue's share while another document waits gives it up at its next page
// or OCR call (Place.Yield) and waits at the back of the queue, its read
// so far kept; documents that take less than the share read in the order
// they came. A nil Queue lets every document read at once.
type Queue struct {
	share time.Duration
	now   func() time.Time

	mu      sync.Mutex
	free    int      // places nobody holds; guarded by mu
	waiting []*Place // first come first; guarded by mu
}

// NewQueue returns a queue of n places (at least 1) and the given share
// (ReadShare when zero or less).
func NewQueue(n int, share time.Duration) *Queue {
	if share <= 0 {
		share = ReadShare
	}
	return &Queue{share: share, now: time.Now, free: max(n, 1)}
}

// Place is one document's turn in a Queue. Its methods are safe for
// concurrent use; those of a nil Place do nothing.
type Place struct {
	q     *Queue
	ready chan struct{} // receives when the place is given to it

	// guarded by q.mu:
	holding bool
	since   time.Time     // when it last got the place
	held    time.Duration // time it held the place before since
}

// Enter waits for a place, first come first served. It returns ctx's
// error if ctx ends first. A nil Queue returns a nil Place at once.
func (q *Queue) Enter(ctx context.Context) (*Place, error) {
	if q == nil {
		return nil, ctx.Err()
	}
	p := &Place{q: q, ready: make(chan struct{}, 1)}
	q.mu.Lock()
	if q.free > 0 && len(q.waiting) == 0 {
		q.free--
		p.grant(q.now())
		q.mu.Unlock()
		return p, nil
	}
	q.waiting = append(q.waiting, p)
	q.mu.Unlock()
	return p, p.wait(ctx)
}

// Yield gives the place up when it has been held for the queue's share
// while another document waits: park is called (the document's idle
// workers can go) and Yield waits at the back of the queue for a place
// again. Otherwise it returns at once. It returns ctx's error if ctx ends
// while it waits (the place is then not held).
func (p *Place) Yield(ctx context.Context, park func()) error {
	if p == nil {
		return ctx.Err()
	}
	q := p.q
	q.mu.Lock()
	now := q.now()
	if !p.holding || len(q.waiting) == 0 || now.Sub(p.since) < q.share {
		q.mu.Unlock()
		return ctx.Err()
	}
	p.drop(now)
	q.pass()
	q.waiting = append(q.waiting, p)
	q.mu.Unlock()
	if park != nil {
		park()
	}
	return p.wait(ctx)
}

// Leave gives the place up for good (it may be called more than once).
func (p *Place) Leave() {
	if p == nil {
		return
	}
	q := p.q
	q.mu.Lock()
	defer q.mu.Unlock()
	if p.holding {
		p.drop(q.now())
		q.pass()
	}
	q.remove(p)
}

// Held is how long the document has held its place in all (the time it
// waited is not counted).
func (p *Place) Held() time.Duration {
	q := p.q
	q.mu.Lock()
	defer q.mu.Unlock()
	d := p.held
	if p.holding {
		d += q.now().Sub(p.since)
	}
	return d
}

// wait waits for the place to be given to p. If ctx ends first, p leaves
// the queue (or gives up the place it got meanwhile).
func (p *Place) wait(ctx context.Context) error {
	select {
	case <-p.ready:
		return nil
	case <-ctx.Done():
		p.Leave()
		return ctx.Err()
	}
}

// grant gives p a place; q.mu is held.
func (p *Place) grant(now time.Time) {
	p.holding, p.since = true, now
}

// drop ends p's hold; q.mu is held.
func (p *Place) drop(now time.Time) {
	p.held += now.Sub(p.since)
	p.holding = false
}

// pass gives a place just freed to the first waiting, or frees it; q.mu
// is held.
func (q *Queue) pass() {
	if len(q.waiting) == 0 {
		q.free++
		return
	}
	next := q.waiting[0]
	q.waiting = q.waiting[1:]
	next.grant(q.now())
	next.ready <- struct{}{}
}

// remove takes p out of the waiting list, if it is there; q.mu is held.
func (q *Queue) remove(p *Place) {
	for i, w := range q.waiting {
		if w == p {
			q.waiting = append(q.waiting[:i:i], q.waiting[i+1:]...)
			return
		}
	}
}
