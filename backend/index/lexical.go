// Package index holds Vika's search indexes. Lexical is an in-memory BM25
// index of chunk text built on bleve.
//
// Two bleve pitfalls shape this package (see DESIGN.md): scoring is TF-IDF
// unless the index mapping sets ScoringModel "bm25", and bleve.NewMemOnly
// silently ignores that setting, so the index is a scorch index created
// with an empty path (bleve.NewUsing("", ..., scorch.Name, scorch.Name,
// nil)), which scorch keeps in memory. BM25's k1 and b are process-wide
// globals of bleve's search package: NewLexical sets them once to K1 and
// B; nothing else in the process may change them.
//
// bleve's BM25 differs from the textbook formula in two ways (measured,
// bleve v2.6): the term frequency is sqrt(freq), and the "average field
// length" is ceil(distinct terms of the field / documents), not the mean
// number of tokens per document. Scores are still BM25-shaped (saturating
// tf, length normalisation, BM25 idf); TestBM25Score pins the formula.
package index

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bindex "github.com/blevesearch/bleve_index_api"

	"vika/backend/corpus"
)

// BM25 parameters, tuned on SciFact (DESIGN.md).
const (
	K1 = 0.9
	B  = 0.4
)

const (
	fieldText = "text"
	fieldDoc  = "doc"
	batchSize = 256
)

// ErrClosed is returned by a Lexical used after Close.
var ErrClosed = errors.New("index closed")

var setParams sync.Once

// Scored is a chunk id with its BM25 score.
type Scored struct {
	ChunkID string
	Score   float64
}

// Lexical is an in-memory BM25 index of chunks. It is safe for concurrent
// use: bleve synchronises reads and writes, mu only protects the handle
// against Close.
type Lexical struct {
	mu  sync.RWMutex
	idx bleve.Index // guarded by mu; nil once closed
}

// index returns the bleve index with mu read-locked; call the returned
// unlock when done.
func (l *Lexical) index() (bleve.Index, func(), error) {
	l.mu.RLock()
	if l.idx == nil {
		l.mu.RUnlock()
		return nil, nil, ErrClosed
	}
	return l.idx, l.mu.RUnlock, nil
}

type entry struct {
	Text string `json:"text"`
	Doc  string `json:"doc"`
}

// NewLexical returns an empty in-memory BM25 index.
func NewLexical() (*Lexical, error) {
	setParams.Do(func() {
		bsearch.BM25_k1 = K1
		bsearch.BM25_b = B
	})
	idx, err := bleve.NewUsing("", newMapping(), scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("create lexical index: %w", err)
	}
	return &Lexical{idx: idx}, nil
}

func newMapping() mapping.IndexMapping {
	text := bleve.NewTextFieldMapping()
	text.Analyzer = en.AnalyzerName
	text.Store = false
	text.IncludeTermVectors = false
	text.IncludeInAll = false

	doc := bleve.NewKeywordFieldMapping()
	doc.Analyzer = keyword.Name
	doc.Store = false
	doc.IncludeInAll = false

	dm := bleve.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt(fieldText, text)
	dm.AddFieldMappingsAt(fieldDoc, doc)

	m := bleve.NewIndexMapping()
	m.DefaultMapping = dm
	m.DefaultAnalyzer = en.AnalyzerName
	m.ScoringModel = bindex.BM25Scoring
	return m
}

// Add indexes chunks in batches, checking ctx between batches. A chunk
// whose id is already indexed is replaced.
func (l *Lexical) Add(ctx context.Context, chunks []corpus.Chunk) error {
	idx, unlock, err := l.index()
	if err != nil {
		return err
	}
	defer unlock()
	for start := 0; start < len(chunks); start += batchSize {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := idx.NewBatch()
		for _, c := range chunks[start:min(start+batchSize, len(chunks))] {
			if err := b.Index(c.ID, entry{Text: c.Text, Doc: c.DocID}); err != nil {
				return fmt.Errorf("index chunk %s: %w", c.ID, err)
			}
		}
		if err := idx.Batch(b); err != nil {
			return fmt.Errorf("index batch: %w", err)
		}
	}
	return nil
}

// Search returns up to k chunks matching query, best first. The query is
// analysed like the text (a match query: any term may match), never parsed
// as query syntax, so quotes, colons or operators are plain text. A query
// with no searchable term returns no result. k <= 0 means 10.
func (l *Lexical) Search(ctx context.Context, q string, k int) ([]Scored, error) {
	idx, unlock, err := l.index()
	if err != nil {
		return nil, err
	}
	defer unlock()
	if k <= 0 {
		k = 10
	}
	mq := query.NewMatchQuery(q)
	mq.SetField(fieldText)
	mq.Analyzer = en.AnalyzerName
	req := bleve.NewSearchRequestOptions(mq, k, 0, false)
	res, err := idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("lexical search: %w", err)
	}
	out := make([]Scored, 0, len(res.Hits))
	for _, h := range res.Hits {
		out = append(out, Scored{ChunkID: h.ID, Score: h.Score})
	}
	return out, nil
}

// DeleteDoc removes every chunk of the document docID.
func (l *Lexical) DeleteDoc(ctx context.Context, docID string) error {
	idx, unlock, err := l.index()
	if err != nil {
		return err
	}
	defer unlock()
	for {
		tq := query.NewTermQuery(docID)
		tq.SetField(fieldDoc)
		req := bleve.NewSearchRequestOptions(tq, batchSize, 0, false)
		req.Score = "none"
		res, err := idx.SearchInContext(ctx, req)
		if err != nil {
			return fmt.Errorf("find chunks of %s: %w", docID, err)
		}
		if len(res.Hits) == 0 {
			return nil
		}
		b := idx.NewBatch()
		for _, h := range res.Hits {
			b.Delete(h.ID)
		}
		if err := idx.Batch(b); err != nil {
			return fmt.Errorf("delete chunks of %s: %w", docID, err)
		}
	}
}

// Count returns the number of indexed chunks.
func (l *Lexical) Count() (int, error) {
	idx, unlock, err := l.index()
	if err != nil {
		return 0, err
	}
	defer unlock()
	n, err := idx.DocCount()
	return int(n), err
}

// Close releases the index. Further calls return ErrClosed.
func (l *Lexical) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.idx == nil {
		return nil
	}
	err := l.idx.Close()
	l.idx = nil
	return err
}
