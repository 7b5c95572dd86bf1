package engine

import (
	"context"
	"errors"
	"slices"
	"sync"

	"vika/backend/corpus"
	"vika/backend/message"
)

// modelSet is the embedding set-up searches use: a retriever over the
// session's lexical index and the dense indexes of the loaded models.
// Reembed builds a new one and swaps it in whole; the old one closes when
// the last search using it ends.
type modelSet struct {
	loadedModels
	// use is read-held by every search and add that embeds with the set;
	// retire takes it for writing before the models close.
	use     sync.RWMutex
	retired bool // guarded by use
}

// acquire returns the set in force, held until release is called: a set
// swapped out meanwhile is not closed before.
func (e *Engine) acquire() (s *modelSet, release func()) {
	for {
		s = e.models.Load()
		s.use.RLock()
		if !s.retired {
			return s, s.use.RUnlock
		}
		s.use.RUnlock() // swapped out and closed: the new one is in place
	}
}

// retire closes s once no search uses it any more.
func (e *Engine) retire(s *modelSet) {
	s.use.Lock()
	s.retired = true
	s.use.Unlock()
	s.close()
}

func (lm loadedModels) close() error { return errors.Join(lm.closeModels(), lm.ret.Close()) }

// Stages of ReembedProgress.
const (
	ReembedEmbedding = "embedding" // Done of Total passages embedded with the new models
	ReembedDone      = "done"      // search now uses Models
	ReembedUnchanged = "unchanged" // the models configured are the ones in use
	ReembedFailed    = "failed"    // Error says why; search keeps the models in use
	ReembedCancelled = "cancelled" // the session closed
)

// ReembedProgress reports a switch of embedding models (Engine.Reembed):
// embedding events, then exactly one done, unchanged, failed or
// cancelled.
type ReembedProgress struct {
	Stage  string   `json:"stage"`
	Done   int      `json:"done"`
	Total  int      `json:"total"`
	Models []string `json:"models"` // the embedding models switched to, English one first
	Error  string   `json:"error,omitempty"`
	// Problem is Error as a code the window translates.
	Problem *message.Message `json:"problem,omitempty"`
}

// Reembed switches the session to the embedding models configured now (a
// model installed since the session began, say: models.EmbedderIn) without
// a restart, in the background: it returns at once, and progress receives
// the events of switchModels from another goroutine. Switches run one at a
// time, in call order.
func (e *Engine) Reembed(progress func(ReembedProgress)) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return ErrClosed
	}
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		progress(e.switchModels(e.ctx, progress))
	}()
	return nil
}

// switchModels loads the embedding models configured now (and CLIP when it
// is installed) and, when they differ from those in use, embeds every
// passage of the session with them (and every figure crop with CLIP)
// (reporting ReembedEmbedding events to progress, at most one per
// progressEvery) and then swaps them in at once: a search that started
// before uses the old models to its end, one that starts after the new
// ones; passages added or removed meanwhile are accounted for. It returns
// the final event (not given to progress). Models that fail to load, or
// that would lose dense retrieval the session has, leave the session as it
// was.
func (e *Engine) switchModels(ctx context.Context, progress func(ReembedProgress)) ReembedProgress {
	e.switchMu.Lock()
	defer e.switchMu.Unlock()
	cur := e.models.Load()
	lm := newRetriever(e.lex, e.cfg)
	final := ReembedProgress{Models: lm.ret.Embedders()}
	fail := func(err error) ReembedProgress {
		lm.close()
		final.Stage = ReembedFailed
		if ctx.Err() != nil {
			final.Stage = ReembedCancelled
		}
		m := message.Of(err)
		final.Error, final.Problem = err.Error(), &m
		return final
	}
	switch {
	case slices.Equal(final.Models, cur.ret.Embedders()) && lm.ret.ImageModel() == cur.ret.ImageModel():
		lm.close()
		final.Stage = ReembedUnchanged
		return final
	case lm.embErr != nil && cur.embErr == nil:
		return fail(lm.embErr)
	}
	chunks, err := e.allChunks(ctx)
	if err != nil {
		return fail(err)
	}
	th := throttle{every: progressEvery, now: e.now}
	vecs, err := lm.ret.Embed(ctx, chunks, func(done, total int) {
		if progress != nil && th.allow(ReembedEmbedding, done, total) {
			progress(ReembedProgress{Stage: ReembedEmbedding, Done: done, Total: total, Models: final.Models})
		}
	})
	if err != nil {
		return fail(err)
	}
	figs, err := figureVectors(ctx, lm, chunks, e.storeRegions(ctx))
	if err != nil {
		return fail(err)
	}
	e.commitMu.Lock() // the set of passages cannot change until the swap
	now, vecs, err := e.catchUp(ctx, lm, chunks, vecs)
	if err == nil && len(now) > 0 {
		err = lm.ret.AddEmbedded(ctx, now, vecs)
	}
	if err == nil {
		if figs, err = e.catchUpFigures(ctx, lm, now, figs); err == nil {
			err = lm.ret.AddFigures(figs.chunks, figs.vecs)
		}
	}
	if err == nil {
		err = e.indexSummaries(ctx, lm)
	}
	if err != nil {
		e.commitMu.Unlock()
		return fail(err)
	}
	old := e.models.Swap(&modelSet{loadedModels: lm})
	e.commitMu.Unlock()
	e.retire(old)
	final.Stage, final.Done, final.Total = ReembedDone, len(now), len(now)
	return final
}

// catchUp returns the session's passages now, with their vectors: those
// of embedded (vectors vecs) kept, those added since embedded with lm.
// The caller holds commitMu.
func (e *Engine) catchUp(ctx context.Context, lm loadedModels, embedded []corpus.Chunk, vecs [][]float32) ([]corpus.Chunk, [][]float32, error) {
	have := make(map[string][]float32, len(embedded))
	for i, c := range embedded {
		if vecs != nil {
			have[c.ID] = vecs[i]
		}
	}
	now, err := e.allChunks(ctx)
	if err != nil || !lm.ret.HasEmbedder() {
		return now, nil, err
	}
	var missing []corpus.Chunk
	for _, c := range now {
		if _, ok := have[c.ID]; !ok {
			missing = append(missing, c)
		}
	}
	more, err := lm.ret.Embed(ctx, missing, nil)
	if err != nil {
		return nil, nil, err
	}
	for i, c := range missing {
		have[c.ID] = more[i]
	}
	out := make([][]float32, len(now))
	for i, c := range now {
		out[i] = have[c.ID]
	}
	return now, out, nil
}

// catchUpFigures returns the image vectors of the figures among now, the
// session's passages: those of figs kept, those added since computed
// with lm, those removed since dropped. The caller holds commitMu.
func (e *Engine) catchUpFigures(ctx context.Context, lm loadedModels, now []corpus.Chunk, figs figureVecs) (figureVecs, error) {
	if lm.image == nil {
		return figureVecs{}, nil
	}
	have := make(map[string][]float32, len(figs.chunks))
	for i, c := range figs.chunks {
		have[c.ID] = figs.vecs[i]
	}
	var out figureVecs
	var missing []corpus.Chunk
	for _, c := range now {
		if v, ok := have[c.ID]; ok {
			out.chunks, out.vecs = append(out.chunks, c), append(out.vecs, v)
		} else if c.Kind == corpus.ChunkFigure {
			missing = append(missing, c)
		}
	}
	more, err := figureVectors(ctx, lm, missing, e.storeRegions(ctx))
	if err != nil {
		return figureVecs{}, err
	}
	out.chunks, out.vecs = append(out.chunks, more.chunks...), append(out.vecs, more.vecs...)
	return out, nil
}

// allChunks returns every passage of the session, document by document.
func (e *Engine) allChunks(ctx context.Context) ([]corpus.Chunk, error) {
	docs, err := e.store.Documents(ctx)
	if err != nil {
		return nil, err
	}
	var all []corpus.Chunk
	for _, d := range docs {
		cs, err := e.store.DocumentChunks(ctx, d.ID)
		if err != nil && !errors.Is(err, corpus.ErrNotFound) {
			return nil, err
		}
		all = append(all, cs...)
	}
	return all, nil
}
