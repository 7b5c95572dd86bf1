package engine

import (
	"context"
	"fmt"

	"vika/backend/corpus"
	"vika/backend/embed"
	"vika/backend/index"
	"vika/backend/retrieve"
)

// newRetriever builds the retriever over lex and, unless off, a dense
// index with the default embedding model. A model that cannot be loaded
// (assets missing, say) leaves BM25 working; the error says why dense
// retrieval is unavailable.
func newRetriever(lex *index.Lexical, off bool) (*retrieve.Retriever, embed.Embedder, error) {
	if off {
		return bm25Only(lex), nil, fmt.Errorf("%w (embeddings are off)", retrieve.ErrNoEmbedder)
	}
	opts, err := embed.DefaultUSELiteOptions()
	if err != nil {
		return bm25Only(lex), nil, err
	}
	emb, err := embed.LoadUSELite(opts)
	if err != nil {
		return bm25Only(lex), nil, err
	}
	ret, err := retrieve.New(lex, index.NewDense(emb.Dim()), emb, retrieve.Options{})
	if err != nil {
		emb.Close()
		return bm25Only(lex), nil, err
	}
	return ret, emb, nil
}

func bm25Only(lex *index.Lexical) *retrieve.Retriever {
	r, err := retrieve.New(lex, nil, nil, retrieve.Options{})
	if err != nil {
		panic(err) // only a nil lexical index fails, and lex is not nil
	}
	return r
}

// SearchOptions are the parameters of one search.
type SearchOptions struct {
	Mode retrieve.Mode // "": hybrid, or BM25 without an embedding model or for a non-English session
	K    int           // <= 0 means 10
}

// SearchResult is the passages found, best first, and how they were found.
type SearchResult struct {
	Hits  []corpus.Hit   `json:"hits"`
	Stats retrieve.Stats `json:"stats"`
}

// DenseUnavailable returns why dense retrieval cannot run, or nil.
func (e *Engine) DenseUnavailable() error { return e.embErr }

// Search returns the k best passages for query in the default mode, best
// first; no match gives an empty, non-nil slice.
func (e *Engine) Search(ctx context.Context, query string, k int) ([]corpus.Hit, error) {
	res, err := e.SearchWith(ctx, query, SearchOptions{K: k})
	return res.Hits, err
}

// denseLanguages are the document languages the default embedding model
// (USE-lite) was trained on. On other languages its vectors are noise:
// measured on the French slides of the evaluation set, hybrid search found
// the answer page in the top 5 for 4 of 8 questions, BM25 for 7 of 8.
var denseLanguages = map[string]bool{"en": true, "": true}

// defaultMode is hybrid when every document of the session is in a
// language the embedding model covers, else BM25.
func (e *Engine) defaultMode(ctx context.Context) (retrieve.Mode, error) {
	if e.emb == nil {
		return retrieve.ModeBM25, nil
	}
	docs, err := e.store.Documents(ctx)
	if err != nil {
		return "", err
	}
	for _, d := range docs {
		if !denseLanguages[d.Lang] {
			return retrieve.ModeBM25, nil
		}
	}
	return retrieve.ModeHybrid, nil
}

// SearchWith searches in the given mode ("" picks hybrid or BM25, see
// defaultMode) and reports the retrieval statistics. Dense mode without an
// embedding model fails with an error saying why.
func (e *Engine) SearchWith(ctx context.Context, query string, o SearchOptions) (SearchResult, error) {
	if e.isClosed() {
		return SearchResult{Hits: []corpus.Hit{}}, ErrClosed
	}
	if o.Mode == "" {
		mode, err := e.defaultMode(ctx)
		if err != nil {
			return SearchResult{Hits: []corpus.Hit{}}, err
		}
		o.Mode = mode
	}
	if o.Mode == retrieve.ModeDense && e.emb == nil {
		return SearchResult{Hits: []corpus.Hit{}}, fmt.Errorf("dense search is unavailable: %w", e.embErr)
	}
	res, err := e.ret.Search(ctx, query, retrieve.SearchOptions{Mode: o.Mode, K: o.K})
	if err != nil {
		return SearchResult{Hits: []corpus.Hit{}}, err
	}
	hits, err := e.hydrate(ctx, res.Hits)
	return SearchResult{Hits: hits, Stats: res.Stats}, err
}

// hydrate turns retrieved chunk ids into hits with their text, file and
// citation label.
func (e *Engine) hydrate(ctx context.Context, found []retrieve.Hit) ([]corpus.Hit, error) {
	ids := make([]string, len(found))
	for i, h := range found {
		ids[i] = h.ChunkID
	}
	chunks, err := e.store.Chunks(ctx, ids)
	if err != nil {
		return []corpus.Hit{}, err
	}
	docs, err := e.store.Documents(ctx)
	if err != nil {
		return []corpus.Hit{}, err
	}
	byID := make(map[string]corpus.Document, len(docs))
	for _, d := range docs {
		byID[d.ID] = d
	}
	hits := make([]corpus.Hit, 0, len(found))
	for _, h := range found {
		c, ok := chunks[h.ChunkID]
		d, known := byID[c.DocID]
		if !ok || !known {
			continue // removed while searching
		}
		hits = append(hits, corpus.Hit{
			File: d.File, Page: c.Page, ChunkID: c.ID, Score: h.Score, Text: c.Text,
			Label: corpus.CitationLabel(d.Label, c.Page), FoundBy: h.FoundBy, DocID: d.ID, PageType: c.PageType,
		})
	}
	return hits, nil
}
