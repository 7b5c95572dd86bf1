package index

import (
	"context"
	"math"
	"slices"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"

	"vika/backend/corpus"
)

// Okapi is an in-memory index scored by the textbook BM25 (Robertson and
// Zaragoza's Okapi BM25 with Lucene's idf): the raw term frequency, the
// mean length in tokens of the entries of the same analyzer, no
// coordination factor. It analyses text with the analyzers of Lexical,
// one per language, so the two indexes see the same terms; only the
// scoring differs (Lexical's bleve BM25 takes the square root of the
// frequency, multiplies by the share of query terms matched and uses
// another mean length: lexical.go).
//
// It is meant for a few long entries, the whole pages of the page
// ranking: a search reads the postings of the query's terms, so its cost
// grows with the entries holding them. Safe for concurrent use.
type Okapi struct {
	mu      sync.RWMutex
	shards  map[string]*okapiShard // by analyzer name
	entries map[string]okapiEntry  // by id
}

type okapiEntry struct {
	shard string
	doc   string
	page  int
	terms map[string]int
	len   int
}

// okapiShard holds the statistics of the entries of one analyzer.
type okapiShard struct {
	analyzer analysis.Analyzer
	postings map[string]map[string]int // term -> id -> frequency
	n        int                       // entries
	tokens   int                       // their tokens, summed
}

// NewOkapi returns an empty Okapi index.
func NewOkapi() *Okapi {
	return &Okapi{shards: map[string]*okapiShard{}, entries: map[string]okapiEntry{}}
}

func (o *Okapi) shardFor(name string) (*okapiShard, error) {
	if s := o.shards[name]; s != nil {
		return s, nil
	}
	m, err := newMapping(name)
	if err != nil {
		return nil, err
	}
	s := &okapiShard{analyzer: m.AnalyzerNamed(name), postings: map[string]map[string]int{}}
	o.shards[name] = s
	return s, nil
}

func (s *okapiShard) terms(text string) (map[string]int, int) {
	out := map[string]int{}
	n := 0
	for _, t := range s.analyzer.Analyze([]byte(text)) {
		out[string(t.Term)]++
		n++
	}
	return out, n
}

// Add indexes chunks (Chunk.Lang picks the analyzer); an id already
// indexed is replaced.
func (o *Okapi) Add(ctx context.Context, chunks []corpus.Chunk) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i, c := range chunks {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		o.drop(c.ID)
		name := Analyzer(c.Lang)
		s, err := o.shardFor(name)
		if err != nil {
			return err
		}
		terms, n := s.terms(c.Text)
		for t, f := range terms {
			if s.postings[t] == nil {
				s.postings[t] = map[string]int{}
			}
			s.postings[t][c.ID] = f
		}
		s.n++
		s.tokens += n
		o.entries[c.ID] = okapiEntry{shard: name, doc: c.DocID, page: c.Page, terms: terms, len: n}
	}
	return nil
}

// drop removes entry id, if indexed. o.mu must be held.
func (o *Okapi) drop(id string) {
	e, ok := o.entries[id]
	if !ok {
		return
	}
	s := o.shards[e.shard]
	for t := range e.terms {
		delete(s.postings[t], id)
		if len(s.postings[t]) == 0 {
			delete(s.postings, t)
		}
	}
	s.n--
	s.tokens -= e.len
	delete(o.entries, id)
}

// DeleteDoc removes every entry of document docID.
func (o *Okapi) DeleteDoc(_ context.Context, docID string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for id, e := range o.entries {
		if e.doc == docID {
			o.drop(id)
		}
	}
	return nil
}

// SearchScoped returns up to k entries that scope keeps and that hold a
// term of q, best first (ties by id). The query is analysed by each
// analyzer in turn, as Lexical does; each distinct query term counts once.
func (o *Okapi) SearchScoped(ctx context.Context, q string, k int, scope corpus.Scope) ([]Scored, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if k <= 0 {
		k = 10
	}
	o.mu.RLock()
	defer o.mu.RUnlock()
	score := map[string]float64{}
	for _, s := range o.shards {
		if s.n == 0 {
			continue
		}
		avg := float64(s.tokens) / float64(s.n)
		terms, _ := s.terms(q)
		for t := range terms {
			post := s.postings[t]
			if len(post) == 0 {
				continue
			}
			df := float64(len(post))
			idf := math.Log(1 + (float64(s.n)-df+0.5)/(df+0.5))
			for id, f := range post {
				e := o.entries[id]
				if !scope.All() && (scope.Mine || !scope.Keeps(e.doc, e.page)) { // whole pages are never the student's own
					continue
				}
				tf := float64(f)
				score[id] += idf * tf * (K1 + 1) / (tf + K1*(1-B+B*float64(e.len)/avg))
			}
		}
	}
	out := make([]Scored, 0, len(score))
	for id, v := range score {
		out = append(out, Scored{ChunkID: id, Score: round(v)})
	}
	slices.SortFunc(out, byScoreThenID)
	return out[:min(k, len(out))], nil
}
