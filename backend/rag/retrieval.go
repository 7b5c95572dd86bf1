package rag

import (
	"context"
	"sort"
	"strings"
	"time"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/llm"
	"vika/backend/message"
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
	// topBM25 is the best BM25 score of the question's chunks (what
	// abstaining compares with its threshold); 0 when BM25 found none or
	// was not asked (dense mode).
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
// with the scores of the question's passages (questionScores).
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
	if err := s.questionScores(ctx, query, &r); err != nil {
		return r, err
	}
	r.latency = s.now().Sub(start)
	return r, nil
}

// questionScores makes the hits' dense and BM25 scores, and r.topBM25,
// those of the question itself. When the question was searched as asked
// in bm25 or hybrid mode, its search measured them: the hits carry them
// and Stats.TopLexical is the best BM25 score, so nothing more is asked.
// Otherwise one BM25 search for the question (to the fusion's candidate
// depth), the probe, gives the BM25 scores:
//   - after HyDE or multi-query the hits' scores are those of the passage
//     or rephrasing that found them, and abstaining must judge the
//     question: the probe's scores replace them, and the dense scores,
//     not the question's, are dropped;
//   - in dense mode BM25 did not run. Abstaining does not need it there
//     (turn.abstains), but the sources' BM25 scores are the relevance
//     proxy of Hit@5, Recall@5 and MRR without a cross-encoder (relevance
//     in record.go), so the probe still runs.
//
// A hit the probe did not retrieve gets no BM25 score (nil).
func (s *Session) questionScores(ctx context.Context, query string, r *retrieval) error {
	if !r.expanded && r.stats.Mode != retrieve.ModeDense {
		r.topBM25 = r.stats.TopLexical
		return nil
	}
	probe, err := s.eng.SearchWith(ctx, query, engine.SearchOptions{Mode: retrieve.ModeBM25, K: retrieve.DefaultDepth})
	if err != nil {
		return err
	}
	lexical := make(map[string]float64, len(probe.Hits))
	for _, h := range probe.Hits {
		lexical[h.ChunkID] = h.Score
	}
	r.topBM25 = probe.Stats.TopLexical
	for i := range r.hits {
		h := &r.hits[i]
		h.LexicalScore = nil
		if v, ok := lexical[h.ChunkID]; ok {
			h.LexicalScore = &v
		}
		if r.expanded {
			h.DenseScore = nil
		}
	}
	return nil
}

// expand asks the cheapest model for a query expansion (what says which);
// a notice says so when it cannot be had.
func (s *Session) expand(ctx context.Context, what string, req llm.Request, notice func(llm.Notice)) (string, bool) {
	skip := func(why, kind string) (string, bool) {
		notice(llm.Notice{Kind: llm.NoticeSkipped, Reason: why,
			Message: what + " was skipped (" + why + "): the question was searched as asked.",
			Code:    message.NoticeExpandSkipped, Params: message.Params{"step": what, "reason": kind}})
		return "", false
	}
	if s.llm == nil {
		return skip("no language model is available", llm.KindOf(llm.ErrNoModel))
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
		return skip(llm.KindOf(err), llm.KindOf(err))
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

// sourcesOf numbers the hits for the prompt, with the scores they carry.
func sourcesOf(r retrieval) []Source {
	out := make([]Source, len(r.hits))
	for i, h := range r.hits {
		out[i] = Source{Hit: h, Index: i + 1}
	}
	return out
}
