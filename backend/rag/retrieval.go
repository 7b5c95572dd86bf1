package rag

import (
	"context"
	"sort"
	"strings"
	"time"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/llm"
	"vika/backend/prompt"
	"vika/backend/retrieve"
)

// rrfK is the Reciprocal Rank Fusion constant of multi-query fusion.
const rrfK = 60

// retrieval is what the retrieval step found.
type retrieval struct {
	hits  []corpus.Hit
	stats retrieve.Stats
	// candidates counts the chunks retrieved over every search made.
	candidates int
	// lexical maps a chunk id to its BM25 score for the searched question;
	// a chunk missing from it was not retrieved by BM25. nil when BM25
	// could not be asked.
	lexical map[string]float64
	topBM25 float64
	// expanded is set when HyDE or multi-query changed the search: hit
	// scores are then not the question's.
	expanded bool
	latency  time.Duration
}

// searchOptions are the engine's options for o: the cross-encoder reranks
// when o asks for it and one is installed (otherwise nothing changes and
// the metrics say "none").
func searchOptions(o Options, k int) engine.SearchOptions {
	return engine.SearchOptions{Mode: retrieve.Mode(o.Mode), K: k, Rerank: o.Rerank}
}

// retrieve searches for query (the standalone question) as o says: with a
// HyDE passage instead of the question, with rephrasings fused in, and
// with the BM25 scores of the question's passages.
func (s *Session) retrieve(ctx context.Context, query string, o Options, k int, notice func(llm.Notice)) (retrieval, error) {
	start := s.now()
	var r retrieval
	searchText := query
	if o.HyDE {
		if p, ok := s.expand(ctx, "HyDE", prompt.HyDERequest(query), notice); ok {
			if hp, ok := prompt.ParseHyDE(p); ok {
				searchText = hp
			}
		}
	}
	res, err := s.eng.SearchWith(ctx, searchText, searchOptions(o, k))
	if err != nil {
		return r, err
	}
	r.hits, r.stats, r.candidates = res.Hits, res.Stats, res.Stats.Candidates
	expanded := searchText != query
	if o.MultiQuery {
		if reply, ok := s.expand(ctx, "multi-query", prompt.MultiQueryRequest(query), notice); ok {
			lists := [][]corpus.Hit{r.hits}
			for _, q := range prompt.ParseRephrasings(query, reply) {
				more, err := s.eng.SearchWith(ctx, q, searchOptions(o, k))
				if err != nil {
					return r, err
				}
				lists = append(lists, more.Hits)
				r.candidates += more.Stats.Candidates
			}
			if len(lists) > 1 {
				r.hits, expanded = fuse(lists, k), true
			}
		}
	}
	r.expanded = expanded
	if err := s.lexicalScores(ctx, query, o, &r, expanded); err != nil {
		return r, err
	}
	r.latency = s.now().Sub(start)
	return r, nil
}

// lexicalScores fills r.lexical and r.topBM25 for query. In bm25 mode the
// hits of the question carry them; otherwise one BM25 search for the
// question (to the fusion's candidate depth) gives them.
func (s *Session) lexicalScores(ctx context.Context, query string, o Options, r *retrieval, expanded bool) error {
	if r.stats.Mode == retrieve.ModeBM25 && !expanded {
		r.lexical = make(map[string]float64, len(r.hits))
		for _, h := range r.hits {
			r.lexical[h.ChunkID] = h.Score
		}
		if len(r.hits) > 0 {
			r.topBM25 = r.hits[0].Score
		}
		return nil
	}
	probe, err := s.eng.SearchWith(ctx, query, engine.SearchOptions{Mode: retrieve.ModeBM25, K: retrieve.DefaultDepth})
	if err != nil {
		return err
	}
	r.lexical = make(map[string]float64, len(probe.Hits))
	for _, h := range probe.Hits {
		r.lexical[h.ChunkID] = h.Score
	}
	if len(probe.Hits) > 0 {
		r.topBM25 = probe.Hits[0].Score
	}
	return nil
}

// expand asks the cheapest model for a query expansion (what says which);
// a notice says so when it cannot be had.
func (s *Session) expand(ctx context.Context, what string, req llm.Request, notice func(llm.Notice)) (string, bool) {
	skip := func(why string) (string, bool) {
		notice(llm.Notice{Kind: llm.NoticeSkipped, Reason: why,
			Message: what + " was skipped (" + why + "): the question was searched as asked."})
		return "", false
	}
	if s.llm == nil {
		return skip("no language model is available")
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.AuxTimeout)
	defer cancel()
	var b strings.Builder
	_, err := s.llm.AskLight(ctx, req, llm.Sink{Delta: func(d llm.Delta) error {
		if !d.Footer {
			b.WriteString(d.Text)
		}
		return nil
	}, Notice: notice})
	if err != nil {
		return skip(llm.KindOf(err))
	}
	return b.String(), true
}

// fuse merges ranked lists by Reciprocal Rank Fusion and keeps the k
// best; a hit's Score becomes its fused score.
func fuse(lists [][]corpus.Hit, k int) []corpus.Hit {
	score := map[string]float64{}
	first := map[string]corpus.Hit{}
	var order []string
	for _, list := range lists {
		for rank, h := range list {
			if _, ok := first[h.ChunkID]; !ok {
				first[h.ChunkID] = h
				order = append(order, h.ChunkID)
			}
			score[h.ChunkID] += 1 / float64(rrfK+rank+1)
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return score[order[i]] > score[order[j]] })
	if len(order) > k {
		order = order[:k]
	}
	out := make([]corpus.Hit, len(order))
	for i, id := range order {
		out[i] = first[id]
		out[i].Score = score[id]
	}
	return out
}

// rewrite makes a follow-up standalone for retrieval with the cheapest
// model, or with prompt.Standalone's heuristic when no model is available
// or the model's reply is unusable.
func (s *Session) rewrite(ctx context.Context, question string, history []prompt.Turn, notice func(llm.Notice)) string {
	heuristic := prompt.Standalone(question, history)
	if s.llm == nil {
		return heuristic
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.AuxTimeout)
	defer cancel()
	var b strings.Builder
	_, err := s.llm.AskLight(ctx, prompt.RewriteRequest(question, history), llm.Sink{Delta: func(d llm.Delta) error {
		if !d.Footer {
			b.WriteString(d.Text)
		}
		return nil
	}, Notice: notice})
	if err != nil {
		return heuristic
	}
	if q, ok := prompt.ParseRewrite(b.String()); ok {
		return q
	}
	return heuristic
}

// sourcesOf numbers the hits for the prompt, with the scores known.
func sourcesOf(r retrieval) []Source {
	out := make([]Source, len(r.hits))
	for i, h := range r.hits {
		out[i] = Source{Hit: h, Index: i + 1}
		if r.lexical != nil {
			v := r.lexical[h.ChunkID]
			out[i].LexicalScore = &v
		}
		if r.stats.Mode == retrieve.ModeDense && !r.expanded {
			v := h.Score
			out[i].DenseScore = &v
		}
	}
	return out
}
