package engine

import (
	"cmp"
	"context"
	"fmt"

	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/rerank"
	"vika/backend/retrieve"
)

// SearchOptions are the parameters of one search.
type SearchOptions struct {
	Mode retrieve.Mode // "": hybrid, or BM25 without an embedding model or when a document's language has none
	K    int           // <= 0 means 10
	// Rerank rescores the best retrieve.DefaultRerankDepth candidates with
	// the installed cross-encoder (loaded once, on first use) and orders
	// them by its scores. Without one installed it does nothing:
	// Stats.Reranker is "none" and no hit has a RerankScore. One that fails
	// to load or to run leaves the retrieval order (Stats.RerankError says
	// why when it ran).
	Rerank bool
	// RerankDepth is how many candidates the cross-encoder rescores (0:
	// retrieve.DefaultRerankDepth); FigureDepth how many figures the image
	// list adds (0: retrieve.FigureDepth, negative: none).
	RerankDepth, FigureDepth int
	// Scope limits the search to some documents and pages, inside
	// retrieval (retrieve.SearchOptions.Scope); the zero value is all.
	Scope corpus.Scope
	// Fusion is how hybrid mode fuses BM25 with the dense side
	// (retrieve.SearchOptions.Fusion): "" by each embedding model's
	// profile, or retrieve.FusionConvex or retrieve.FusionRRF.
	Fusion retrieve.Fusion
}

// SearchResult is the passages found, best first, and how they were found.
type SearchResult struct {
	Hits  []corpus.Hit   `json:"hits"`
	Stats retrieve.Stats `json:"stats"`
}

// DenseUnavailable returns why dense retrieval cannot run, or nil.
func (e *Engine) DenseUnavailable() error { return e.models.Load().embErr }

// Reranker returns the label of the installed cross-encoder ("none"
// without one), loading it on the first call, and why an installed one
// could not be loaded (searches then run without reranking).
func (e *Engine) Reranker() (string, error) {
	r, err := e.rr.get()
	return rerank.Label(r), err
}

// defaultMode is ret's default mode for the languages of the session's
// documents (retrieve.Retriever.DefaultMode).
func (e *Engine) defaultMode(ctx context.Context, ret *retrieve.Retriever) (retrieve.Mode, error) {
	docs, err := e.store.Documents(ctx)
	if err != nil {
		return "", err
	}
	langs := make([]string, len(docs))
	for i, d := range docs {
		langs[i] = d.Lang
	}
	return ret.DefaultMode(langs...), nil
}

// Search returns the o.K passages that best answer q, best first, with
// how they were found: the searches of q's texts (the question, or its
// HyDE passage and rephrasings) in o.Mode ("" picks hybrid or BM25, see
// defaultMode), fused, reranked against the question if asked and a
// cross-encoder is installed, and scored for the question
// (retrieve.Retriever.SearchQuery). Dense mode without an embedding model
// fails with an error saying why (message.SearchDenseUnavailable); no match gives an empty, non-nil slice.
func (e *Engine) Search(ctx context.Context, q retrieve.Query, o SearchOptions) (SearchResult, error) {
	if e.isClosed() {
		return SearchResult{Hits: []corpus.Hit{}}, ErrClosed
	}
	set, release := e.acquire() // the models in force, held to the end even if switchModels swaps them
	defer release()
	ro, err := e.searchOptions(ctx, set, o)
	if err != nil {
		return SearchResult{Hits: []corpus.Hit{}}, err
	}
	res, err := set.ret.SearchQuery(ctx, q, ro)
	if err != nil {
		return SearchResult{Hits: []corpus.Hit{}}, err
	}
	res.Stats.KeywordsOnly = e.keywordsOnly(o.Scope, res.Stats.Mode)
	hits, err := e.label(ctx, res.Hits)
	return SearchResult{Hits: hits, Stats: res.Stats}, err
}

// searchOptions resolves o's mode and reranker for the models of set.
func (e *Engine) searchOptions(ctx context.Context, set *modelSet, o SearchOptions) (retrieve.SearchOptions, error) {
	if o.Mode == "" {
		mode, err := e.defaultMode(ctx, set.ret)
		if err != nil {
			return retrieve.SearchOptions{}, err
		}
		o.Mode = mode
	}
	if o.Mode == retrieve.ModeDense && !set.ret.HasEmbedder() {
		why := cmp.Or(set.embErr, retrieve.ErrNoEmbedder)
		return retrieve.SearchOptions{}, message.Wrap(fmt.Errorf("dense search is unavailable: %w", why), message.SearchDenseUnavailable, "detail", why.Error())
	}
	if o.Scope.Section != "" {
		// An outline section is its document's pages (the indexes read
		// documents and pages only). The store's list, not Documents:
		// that one takes the models again for its vector counts.
		docs, err := e.store.Documents(ctx)
		if err != nil {
			return retrieve.SearchOptions{}, err
		}
		if o.Scope, err = o.Scope.Resolve(docs); err != nil {
			return retrieve.SearchOptions{}, err
		}
	}
	ro := retrieve.SearchOptions{Mode: o.Mode, K: o.K, Scope: o.Scope, RerankDepth: min(o.RerankDepth, retrieve.MaxRerankDepth), FigureDepth: o.FigureDepth, Fusion: o.Fusion}
	if o.Rerank {
		// A cross-encoder that fails to load leaves search working without
		// it; Reranker reports the error.
		if r, _ := e.rr.get(); r != nil {
			ro.Rerank, ro.Passages = r, passages{e}
		}
	}
	return ro, nil
}

// passages reads the reranker's passages from the session's store.
type passages struct{ e *Engine }

// Texts returns the text of the chunks ids that are still in the session.
func (p passages) Texts(ctx context.Context, ids []string) (map[string]string, error) {
	chunks, err := p.e.store.Chunks(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(chunks))
	for id, c := range chunks {
		out[id] = c.Text
	}
	return out, nil
}

// label fills in place the hits retrieval found with their text, file and
// citation label, dropping those whose chunk left the session meanwhile.
func (e *Engine) label(ctx context.Context, found []corpus.Hit) ([]corpus.Hit, error) {
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
	hits := found[:0]
	for _, h := range found {
		c, ok := chunks[h.ChunkID]
		d, known := byID[c.DocID]
		if !ok || !known {
			continue // removed while searching
		}
		h.File, h.Page, h.Text, h.DocID, h.PageType, h.Kind = d.File, c.Page, c.Text, d.ID, c.PageType, c.Kind
		h.Label, h.Unit = corpus.CitationLabel(d.Label, d.Unit, c.Page), d.Unit
		h.BBox = c.BBox
		hits = append(hits, h)
	}
	if hits == nil {
		hits = []corpus.Hit{}
	}
	return hits, nil
}
