// Package index holds Vika's search indexes: Lexical, an in-memory BM25
// index of chunk text built on bleve with one analyzer per language, and
// Dense, an exact cosine-similarity index of chunk embeddings.
//
// Two bleve pitfalls shape Lexical (both measured): scoring is TF-IDF
// unless the index mapping sets ScoringModel "bm25", and bleve.NewMemOnly
// silently ignores that setting, so each index is a scorch index created
// with an empty path (bleve.NewUsing("", ..., scorch.Name, scorch.Name,
// nil)), which scorch keeps in memory. BM25's k1 and b are process-wide
// globals of bleve's search package: NewLexical sets them once to K1 and
// B; nothing else in the process may change them.
//
// bleve's BM25 differs from the textbook formula (measured, bleve v2.6):
// the term frequency is sqrt(freq); a multi-term query multiplies the sum
// of its term scores by the share of query terms the chunk contains
// (Lucene's "coord"); and the "average field length" is ceil(distinct
// terms of the field / documents), not the mean number of tokens per
// chunk. Handing bleve the true mean (through the request's BM25
// statistics) was measured and rejected: SciFact train nDCG@10 0.6860 at
// best against 0.6887 (tune_test.go). TestBM25Score pins the formula.
//
// Analyzer, k1 and b were tuned on SciFact train: the English analyzer
// (Porter) beat Snowball English (0.6887 against 0.6866 at k1=0.9,
// b=0.4), and k1=0.9, b=0.4 ties the best of a 4x6 grid (0.6890 at
// k1=1.2, b=0.3).
package index

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	bsearch "github.com/blevesearch/bleve/v2/search"

	"vika/backend/corpus"
)

// BM25 parameters, tuned on SciFact train (tune_test.go).
const (
	K1 = 0.9
	B  = 0.4
)

const batchSize = 256

// ErrClosed is returned by an index used after Close.
var ErrClosed = errors.New("index closed")

var setParams sync.Once

// Scored is a chunk id with its score (BM25 for Lexical, cosine for Dense).
type Scored struct {
	ChunkID string
	Score   float64
}

// Lexical is an in-memory BM25 index of chunks. Each chunk is analysed
// for its language (Chunk.Lang, see Analyzer) and stored in the bleve
// index of that analyzer, which keeps BM25 statistics (idf, mean length)
// per language; a query is analysed by each language's analyzer in turn
// and the hits are merged by score.
//
// It is safe for concurrent use. Searches run in parallel with each other
// and with writes; writes (Add, DeleteDoc) are serialised.
type Lexical struct {
	life   sync.RWMutex // read-held by every operation, write-held by Close
	closed bool         // guarded by life

	wmu sync.Mutex // serialises Add and DeleteDoc

	mu     sync.Mutex
	shards map[string]*shard              // by analyzer name; guarded by mu
	chunks map[string]entry               // by chunk id; guarded by mu
	byDoc  map[string]map[string]struct{} // doc id -> chunk ids; guarded by mu
}

// entry is what Lexical remembers of an indexed chunk.
type entry struct {
	shard string
	doc   string
}

// NewLexical returns an empty in-memory BM25 index.
func NewLexical() (*Lexical, error) {
	setParams.Do(func() {
		bsearch.BM25_k1 = K1
		bsearch.BM25_b = B
	})
	return &Lexical{
		shards: map[string]*shard{},
		chunks: map[string]entry{},
		byDoc:  map[string]map[string]struct{}{},
	}, nil
}

// acquire read-locks life; call release when done.
func (l *Lexical) acquire() (release func(), err error) {
	l.life.RLock()
	if l.closed {
		l.life.RUnlock()
		return nil, ErrClosed
	}
	return l.life.RUnlock, nil
}

// shardFor returns the shard of analyzer, creating it on first use.
func (l *Lexical) shardFor(analyzer string) (*shard, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s := l.shards[analyzer]; s != nil {
		return s, nil
	}
	s, err := newShard(analyzer)
	if err != nil {
		return nil, err
	}
	l.shards[analyzer] = s
	return s, nil
}

// Add indexes chunks in batches, checking ctx between batches. A chunk
// whose id is already indexed is replaced, even if its language changed.
func (l *Lexical) Add(ctx context.Context, chunks []corpus.Chunk) error {
	release, err := l.acquire()
	if err != nil {
		return err
	}
	defer release()
	l.wmu.Lock()
	defer l.wmu.Unlock()
	for start := 0; start < len(chunks); start += batchSize {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := l.addBatch(chunks[start:min(start+batchSize, len(chunks))]); err != nil {
			return err
		}
	}
	return nil
}

// addBatch indexes chunks, removing any earlier version of them from the
// shard of their former language. l.wmu must be held.
func (l *Lexical) addBatch(chunks []corpus.Chunk) error {
	type change struct {
		shard *shard
		index []corpus.Chunk
		drop  []string
	}
	chunks = lastOfEach(chunks)
	changes := map[string]*change{}
	at := func(name string) (*change, error) {
		if c := changes[name]; c != nil {
			return c, nil
		}
		s, err := l.shardFor(name)
		if err != nil {
			return nil, err
		}
		changes[name] = &change{shard: s}
		return changes[name], nil
	}
	added := make([]entry, len(chunks))
	for i, c := range chunks {
		name := Analyzer(c.Lang)
		ch, err := at(name)
		if err != nil {
			return err
		}
		ch.index = append(ch.index, c)
		added[i] = entry{shard: name, doc: c.DocID}
		l.mu.Lock()
		old, ok := l.chunks[c.ID]
		l.mu.Unlock()
		if ok && old.shard != name {
			prev, err := at(old.shard)
			if err != nil {
				return err
			}
			prev.drop = append(prev.drop, c.ID)
		}
	}
	for _, ch := range changes {
		if err := ch.shard.apply(ch.index, ch.drop); err != nil {
			return err
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, c := range chunks {
		l.forget(c.ID)
		l.chunks[c.ID] = added[i]
		if l.byDoc[c.DocID] == nil {
			l.byDoc[c.DocID] = map[string]struct{}{}
		}
		l.byDoc[c.DocID][c.ID] = struct{}{}
		l.shards[added[i].shard].docs++
	}
	return nil
}

// lastOfEach returns chunks without the earlier copies of a repeated id.
func lastOfEach(chunks []corpus.Chunk) []corpus.Chunk {
	last := make(map[string]int, len(chunks))
	for i, c := range chunks {
		last[c.ID] = i
	}
	if len(last) == len(chunks) {
		return chunks
	}
	out := make([]corpus.Chunk, 0, len(last))
	for i, c := range chunks {
		if last[c.ID] == i {
			out = append(out, c)
		}
	}
	return out
}

// forget drops the bookkeeping of chunk id, if indexed. l.mu must be held.
func (l *Lexical) forget(id string) {
	old, ok := l.chunks[id]
	if !ok {
		return
	}
	l.shards[old.shard].docs--
	delete(l.chunks, id)
	if ids := l.byDoc[old.doc]; ids != nil {
		delete(ids, id)
		if len(ids) == 0 {
			delete(l.byDoc, old.doc)
		}
	}
}

// Search returns up to k chunks matching query, best first (ties by chunk
// id). The query is analysed like the text (a match query: any term may
// match), never parsed as query syntax, so quotes, colons or operators are
// plain text. A query with no searchable term returns no result. k <= 0
// means 10.
func (l *Lexical) Search(ctx context.Context, q string, k int) ([]Scored, error) {
	return l.SearchScoped(ctx, q, k, corpus.Scope{})
}

// SearchScoped is Search over the chunks scope keeps only: the scope is
// a filter of the BM25 query itself, so the k hits are the k best of the
// scope, scored as they would be without it.
func (l *Lexical) SearchScoped(ctx context.Context, q string, k int, scope corpus.Scope) ([]Scored, error) {
	release, err := l.acquire()
	if err != nil {
		return nil, err
	}
	defer release()
	if k <= 0 {
		k = 10
	}
	var targets []*shard
	l.mu.Lock()
	for _, s := range l.shards {
		if s.docs > 0 {
			targets = append(targets, s)
		}
	}
	l.mu.Unlock()

	var out []Scored
	for _, s := range targets {
		hits, err := s.search(ctx, q, k, scope)
		if err != nil {
			return nil, err
		}
		out = append(out, hits...)
	}
	slices.SortFunc(out, byScoreThenID)
	if len(out) > k {
		out = out[:k]
	}
	return out, nil
}

// DeleteDoc removes every chunk of the document docID.
func (l *Lexical) DeleteDoc(ctx context.Context, docID string) error {
	return l.remove(ctx, func() []string {
		ids := make([]string, 0, len(l.byDoc[docID]))
		for id := range l.byDoc[docID] {
			ids = append(ids, id)
		}
		return ids
	})
}

// Delete removes the chunks ids (those indexed; an unknown id is no
// error).
func (l *Lexical) Delete(ctx context.Context, ids []string) error {
	return l.remove(ctx, func() []string { return ids })
}

// remove deletes the chunks pick names (called with mu held, after the
// writers' lock is taken), shard by shard.
func (l *Lexical) remove(ctx context.Context, pick func() []string) error {
	release, err := l.acquire()
	if err != nil {
		return err
	}
	defer release()
	if err := ctx.Err(); err != nil {
		return err
	}
	l.wmu.Lock()
	defer l.wmu.Unlock()
	drop := map[*shard][]string{}
	l.mu.Lock()
	for _, id := range pick() {
		if e, ok := l.chunks[id]; ok {
			s := l.shards[e.shard]
			drop[s] = append(drop[s], id)
		}
	}
	l.mu.Unlock()
	for s, ids := range drop {
		if err := s.apply(nil, ids); err != nil {
			return fmt.Errorf("delete chunks: %w", err)
		}
		l.mu.Lock()
		for _, id := range ids {
			l.forget(id)
		}
		l.mu.Unlock()
	}
	return nil
}

// Count returns the number of indexed chunks.
func (l *Lexical) Count() (int, error) {
	release, err := l.acquire()
	if err != nil {
		return 0, err
	}
	defer release()
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.chunks), nil
}

// Languages returns the analyzers in use and how many chunks each holds.
func (l *Lexical) Languages() map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]int{}
	for name, s := range l.shards {
		if s.docs > 0 {
			out[name] = s.docs
		}
	}
	return out
}

// Close releases the index, waiting for operations in flight. Further
// calls return ErrClosed.
func (l *Lexical) Close() error {
	l.life.Lock()
	defer l.life.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	l.mu.Lock()
	defer l.mu.Unlock()
	var errs []error
	for _, s := range l.shards {
		errs = append(errs, s.idx.Close())
	}
	l.shards, l.chunks, l.byDoc = nil, nil, nil
	return errors.Join(errs...)
}
