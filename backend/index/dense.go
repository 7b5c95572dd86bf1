package index

import (
	"cmp"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"vika/backend/corpus"
)

// ErrDim is returned for a vector whose length is not the index's.
var ErrDim = errors.New("vector dimension mismatch")

// ParallelRows is the index size from which Dense.Search scans with two
// goroutines. Measured (BenchmarkDenseScan, 512 dimensions, top 100, 2-core
// machine): with the second core idle two goroutines take 0.82x the time
// of one at 2,000 rows, 0.65x at 5,000, 0.58x at 10,000 and 0.53x at
// 50,000 (1.68 ms -> 0.97 ms at 10,000); with it busy, about the same
// time as one. Below a few thousand rows the scan is too short to split.
const ParallelRows = 4096

// Dense is an exact nearest-neighbour index of unit vectors: Search scores
// every stored vector by dot product (the cosine, vectors being unit) and
// keeps the best k in a heap. Exact search over 10,000 x 512 takes about
// 1 ms (50,000: about 4.3 ms), so no approximate index is needed at a
// session's scale (and coder/hnsw v0.6.1 returned 14% of the exact
// top-10 when measured).
//
// Vectors are stored row after row in one []float32. It is safe for
// concurrent use.
type Dense struct {
	dim int

	mu    sync.RWMutex
	vecs  []float32      // row i is vecs[i*dim:(i+1)*dim]; guarded by mu
	ids   []string       // chunk id of row i; guarded by mu
	docs  []string       // doc id of row i; guarded by mu
	pages []int          // page of row i; guarded by mu
	mine  []bool         // row i is the student's own (corpus.ChunkMine); guarded by mu
	row   map[string]int // chunk id -> row; guarded by mu
}

// NewDense returns an empty index of dim-dimensional vectors.
func NewDense(dim int) *Dense {
	if dim <= 0 {
		panic(fmt.Sprintf("index: NewDense(%d)", dim))
	}
	return &Dense{dim: dim, row: map[string]int{}}
}

// Dim is the length of the vectors.
func (d *Dense) Dim() int { return d.dim }

// Len is the number of stored vectors.
func (d *Dense) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return len(d.ids)
}

// Add stores vecs[i] for chunks[i], replacing the vector of a chunk id
// already present. Vectors are normalised to unit length on the way in; a
// zero vector stays zero (it matches nothing).
func (d *Dense) Add(chunks []corpus.Chunk, vecs [][]float32) error {
	if len(chunks) != len(vecs) {
		return fmt.Errorf("index: %d chunks but %d vectors", len(chunks), len(vecs))
	}
	for i, v := range vecs {
		if len(v) != d.dim {
			return fmt.Errorf("%w: chunk %s has %d, want %d", ErrDim, chunks[i].ID, len(v), d.dim)
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for i, c := range chunks {
		r, ok := d.row[c.ID]
		if !ok {
			r = len(d.ids)
			d.row[c.ID] = r
			d.ids = append(d.ids, c.ID)
			d.docs = append(d.docs, c.DocID)
			d.pages = append(d.pages, c.Page)
			d.mine = append(d.mine, false)
			d.vecs = append(d.vecs, make([]float32, d.dim)...)
		}
		d.docs[r], d.pages[r], d.mine[r] = c.DocID, c.Page, c.Kind == corpus.ChunkMine
		unit(d.vecs[r*d.dim:(r+1)*d.dim], vecs[i])
	}
	return nil
}

// unit copies v into dst scaled to unit length (zero stays zero).
func unit(dst, v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	scale := float32(0)
	if sum > 0 && !math.IsInf(sum, 0) && !math.IsNaN(sum) {
		scale = float32(1 / math.Sqrt(sum))
	}
	for i, x := range v {
		dst[i] = x * scale
	}
}

// DeleteDoc removes the vectors of every chunk of docID and returns how
// many there were. The last rows move into the freed ones.
func (d *Dense) DeleteDoc(docID string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for r := 0; r < len(d.ids); {
		if d.docs[r] != docID {
			r++
			continue
		}
		d.removeRow(r)
		n++
	}
	return n
}

// CountDoc returns how many vectors the index holds for document docID.
func (d *Dense) CountDoc(docID string) int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	n := 0
	for _, doc := range d.docs {
		if doc == docID {
			n++
		}
	}
	return n
}

// Delete removes the vectors of the given chunk ids (absent ones are
// skipped) and returns how many there were.
func (d *Dense) Delete(ids []string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for _, id := range ids {
		if r, ok := d.row[id]; ok {
			d.removeRow(r)
			n++
		}
	}
	return n
}

// removeRow moves the last row into row r and shrinks the store.
func (d *Dense) removeRow(r int) {
	last := len(d.ids) - 1
	delete(d.row, d.ids[r])
	if r != last {
		copy(d.vecs[r*d.dim:(r+1)*d.dim], d.vecs[last*d.dim:])
		d.ids[r], d.docs[r], d.pages[r], d.mine[r] = d.ids[last], d.docs[last], d.pages[last], d.mine[last]
		d.row[d.ids[r]] = r
	}
	d.ids, d.docs, d.pages, d.mine = d.ids[:last], d.docs[:last], d.pages[:last], d.mine[:last]
	d.vecs = d.vecs[:last*d.dim]
}

// Vector returns a copy of the stored (unit) vector of chunk id.
func (d *Dense) Vector(id string) ([]float32, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	r, ok := d.row[id]
	if !ok {
		return nil, false
	}
	return slices.Clone(d.vecs[r*d.dim : (r+1)*d.dim]), true
}

// Similarity returns the cosine of q with the vector of each chunk id, and
// whether the chunk has a vector (missing ones get 0, false).
func (d *Dense) Similarity(q []float32, ids []string) ([]float64, []bool, error) {
	if len(q) != d.dim {
		return nil, nil, fmt.Errorf("%w: query has %d, want %d", ErrDim, len(q), d.dim)
	}
	qu := make([]float32, d.dim)
	unit(qu, q)
	d.mu.RLock()
	defer d.mu.RUnlock()
	sims := make([]float64, len(ids))
	found := make([]bool, len(ids))
	for i, id := range ids {
		if r, ok := d.row[id]; ok {
			sims[i], found[i] = float64(dot(qu, d.vecs[r*d.dim:(r+1)*d.dim])), true
		}
	}
	return sims, found, nil
}

// Search returns the k stored vectors closest to q by cosine, best first
// (ties by chunk id). q need not be unit length. k <= 0 means 10.
func (d *Dense) Search(ctx context.Context, q []float32, k int) ([]Scored, error) {
	return d.SearchScoped(ctx, q, k, corpus.Scope{})
}

// SearchScoped is Search over the vectors of the chunks scope keeps only:
// the rows outside it are never scored, so the k hits are the k best of
// the scope.
func (d *Dense) SearchScoped(ctx context.Context, q []float32, k int, scope corpus.Scope) ([]Scored, error) {
	if len(q) != d.dim {
		return nil, fmt.Errorf("%w: query has %d, want %d", ErrDim, len(q), d.dim)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if k <= 0 {
		k = 10
	}
	qu := make([]float32, d.dim)
	unit(qu, q)
	d.mu.RLock()
	defer d.mu.RUnlock()
	n := len(d.ids)
	var best topK
	if n < ParallelRows {
		best = d.scan(qu, 0, n, k, scope)
	} else {
		half := n / 2
		var other topK
		done := make(chan struct{})
		go func() {
			defer close(done)
			other = d.scan(qu, half, n, k, scope)
		}()
		best = d.scan(qu, 0, half, k, scope)
		<-done
		for _, c := range other.items {
			best.offer(c.row, c.score, d.ids)
		}
	}
	slices.SortFunc(best.items, func(a, b candidate) int { return best.compare(b, a, d.ids) })
	out := make([]Scored, len(best.items))
	for i, c := range best.items {
		out[i] = Scored{ChunkID: d.ids[c.row], Score: float64(c.score)}
	}
	return out, nil
}

// scan scores the rows of [from, to) that scope keeps against q and
// keeps the best k. d.mu is read-held by the caller.
func (d *Dense) scan(q []float32, from, to, k int, scope corpus.Scope) topK {
	best := topK{k: k, items: make([]candidate, 0, min(k, to-from))}
	all := scope.All()
	for r := from; r < to; r++ {
		if !all && (!scope.Keeps(d.docs[r], d.pages[r]) || scope.Mine && !d.mine[r]) {
			continue
		}
		s := dot(q, d.vecs[r*d.dim:(r+1)*d.dim])
		if len(best.items) == k && s < best.items[0].score {
			continue // cheap reject before the heap
		}
		best.offer(r, s, d.ids)
	}
	return best
}

// dot is the dot product of two vectors of equal length, unrolled by 8.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
		s4 += a[i+4] * b[i+4]
		s5 += a[i+5] * b[i+5]
		s6 += a[i+6] * b[i+6]
		s7 += a[i+7] * b[i+7]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3) + (s4 + s5) + (s6 + s7)
}

type candidate struct {
	row   int
	score float32
}

// topK is a min-heap of the k best candidates: items[0] is the worst kept.
// Ties are broken by chunk id (the smaller id ranks higher).
type topK struct {
	k     int
	items []candidate
	ids   []string // set during offer, for Less
}

// compare orders a before b when a ranks lower (worse) than b.
func (t *topK) compare(a, b candidate, ids []string) int {
	if c := cmp.Compare(a.score, b.score); c != 0 {
		return c
	}
	return cmp.Compare(ids[b.row], ids[a.row])
}

func (t *topK) offer(row int, score float32, ids []string) {
	t.ids = ids
	c := candidate{row, score}
	if len(t.items) < t.k {
		heap.Push(t, c)
		return
	}
	if t.compare(c, t.items[0], ids) > 0 {
		t.items[0] = c
		heap.Fix(t, 0)
	}
}

func (t *topK) Len() int           { return len(t.items) }
func (t *topK) Less(i, j int) bool { return t.compare(t.items[i], t.items[j], t.ids) < 0 }
func (t *topK) Swap(i, j int)      { t.items[i], t.items[j] = t.items[j], t.items[i] }
func (t *topK) Push(x any)         { t.items = append(t.items, x.(candidate)) }
func (t *topK) Pop() any {
	x := t.items[len(t.items)-1]
	t.items = t.items[:len(t.items)-1]
	return x
}
