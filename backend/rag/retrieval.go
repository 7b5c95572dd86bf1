package rag

import (
	"context"
	"strings"
	"time"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/llm"
	"vika/backend/message"
	"vika/backend/prompt"
	"vika/backend/retrieve"
)

// retrieval is what the retrieval step found.
type retrieval struct {
	hits []corpus.Hit
	// stats.TopLexical is the best BM25 score of the question's chunks
	// (what abstaining compares with its threshold); 0 when BM25 found
	// none.
	stats   retrieve.Stats
	latency time.Duration
	// hyde and multi say whether a HyDE passage and rephrasings were
	// searched (asked for, and obtained from a model).
	hyde, multi bool
}

// retrieve searches for query (the standalone question) as o says: with a
// HyDE passage instead of the question and with rephrasings, fused,
// reranked against the question and scored for it by the engine
// (retrieve.Retriever.SearchQuery). The latency includes the expansions.
func (s *Assistant) retrieve(ctx context.Context, query string, o Options, k int, notice func(llm.Notice)) (retrieval, error) {
	start := s.now()
	q := retrieve.Query{Question: query}
	if o.HyDE {
		if p, ok := s.expand(ctx, "HyDE", prompt.HyDERequest(query), notice); ok {
			if hp, ok := prompt.ParseHyDE(p); ok {
				q.HyDE = hp
			}
		}
	}
	if o.MultiQuery {
		if reply, ok := s.expand(ctx, "multi-query", prompt.MultiQueryRequest(query, o.MultiQueryVariants), notice); ok {
			q.Rephrasings = prompt.ParseRephrasings(query, reply, o.MultiQueryVariants)
		}
	}
	so := engine.SearchOptions{Mode: retrieve.Mode(o.Mode), K: k, Rerank: o.Rerank, RerankDepth: o.RerankDepth, FigureDepth: figureDepth(o.FigureDepth), Scope: o.Scope, Fusion: retrieve.Fusion(o.Fusion)}
	if o.Selection != nil {
		q = selectionQuery(q, o.Selection)
	}
	res, err := s.eng.Search(ctx, q, so)
	if err != nil {
		return retrieval{}, err
	}
	hits := res.Hits
	if o.Selection != nil {
		// The selection is the first source; the passages around its page
		// come before the others.
		if sel, ok := s.selectionHit(ctx, o.Selection); ok {
			so.Scope = aroundSelection(o.Selection, o.Scope)
			near, err := s.eng.Search(ctx, q, so)
			if err != nil {
				return retrieval{}, err
			}
			hits = withSelection(sel, near.Hits, res.Hits, k)
		}
	}
	return retrieval{hits: hits, stats: res.Stats, latency: s.now().Sub(start),
		hyde: q.HyDE != "" && q.HyDE != q.Question, multi: len(q.Rephrasings) > 0}, nil
}

// expand asks the cheapest model for a query expansion (what says which);
// a notice says so when it cannot be had.
func (s *Assistant) expand(ctx context.Context, what string, req llm.Request, notice func(llm.Notice)) (string, bool) {
	skip := func(why, kind string) (string, bool) {
		notice(llm.Notice{Kind: llm.NoticeSkipped, Reason: why}.Say(message.NoticeExpandSkipped, "step", what, "reason", kind))
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

// rewrite makes a follow-up standalone for retrieval with the cheapest
// model, or with prompt.Standalone's heuristic when no model is available
// or the model's reply is unusable.
func (s *Assistant) rewrite(ctx context.Context, question string, history []prompt.Turn, notice func(llm.Notice)) string {
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

// figureDepth is engine.SearchOptions.FigureDepth for Options.FigureDepth
// d: the default for nil, none (negative) for 0.
func figureDepth(d *int) int {
	switch {
	case d == nil:
		return 0
	case *d == 0:
		return -1
	}
	return *d
}
