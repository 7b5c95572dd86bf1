package retrieve

import (
	"context"
	"fmt"
	"slices"

	"vika/backend/corpus"
	"vika/backend/index"
)

// The summary list (the summary index): when a model has written short
// summaries of passages (engine.Summarize), each summary's vector is kept
// under its passage's id in a dense index of its own, one per embedding
// model, and the summaries nearest a question join hybrid and dense
// searches as a list of their own, by Reciprocal Rank Fusion like the
// figure list (k = DefaultRRFK): a passage scores 1/(k + its rank in the
// search's list) + SummaryWeight/(k + its rank among the SummaryDepth
// summaries nearest the question). A hit on a summary is the passage
// itself: its id, its text, its citation; the summary never reaches an
// answer. Without summaries nothing changes: no list, no extra embedding.
const (
	SummaryWeight = 1.0
	SummaryDepth  = 10
)

// FoundSummary is Hit.FoundBy of a passage only the summary list found.
const FoundSummary = "summary"

// summaryIndex is the dense index of the summaries of the passages routed
// to a space (its model's dimension).
func newSummaryIndex(dim int) *index.Dense { return index.NewDense(dim) }

// SummaryVectors counts the passages whose summary has a vector.
func (r *Retriever) SummaryVectors() int {
	n := 0
	for _, s := range r.spaces {
		n += s.sums.Len()
	}
	return n
}

// AddSummaries indexes the vectors of passages' summaries, computed by
// Embed over the passages with their summary as Text (ids, documents,
// pages and languages are the passages'), each in the summary index of
// the model its language is routed to; nothing without an embedder. A
// passage summarised again replaces its vector.
func (r *Retriever) AddSummaries(summaries []corpus.Chunk, vecs [][]float32) error {
	if len(r.spaces) == 0 || len(summaries) == 0 {
		return nil
	}
	if len(vecs) != len(summaries) {
		return fmt.Errorf("retrieve: %d summaries but %d vectors", len(summaries), len(vecs))
	}
	summaries, vecs = only(inDense, summaries, vecs)
	groups := r.groups(summaries)
	for s, idx := range groups {
		for _, i := range idx {
			if d := r.spaces[s].sums.Dim(); len(vecs[i]) != d {
				return fmt.Errorf("retrieve: %w: the summary of %s has %d, %s wants %d", index.ErrDim, summaries[i].ID, len(vecs[i]), r.spaces[s].emb.Name(), d)
			}
		}
	}
	for s, idx := range groups {
		cs, vs := make([]corpus.Chunk, len(idx)), make([][]float32, len(idx))
		ids := make([]string, len(idx))
		for j, i := range idx {
			cs[j], vs[j], ids[j] = summaries[i], vecs[i], summaries[i].ID
		}
		for o, other := range r.spaces {
			if o != s && len(ids) > 0 {
				other.sums.Delete(ids)
			}
		}
		if err := r.spaces[s].sums.Add(cs, vs); err != nil {
			return err
		}
	}
	return nil
}

// summaryList returns the passages whose summaries are nearest question,
// best first, at most depth of them: none in bm25 mode or when no summary
// has a vector. With several models the lists are interleaved by rank.
func (r *Retriever) summaryList(ctx context.Context, question string, mode Mode, scope corpus.Scope, depth int, st *Stats) ([]index.Scored, error) {
	if depth <= 0 || mode == ModeBM25 || r.SummaryVectors() == 0 {
		return nil, nil
	}
	t := r.now()
	var lists [][]index.Scored
	for _, s := range r.spaces {
		if s.sums.Len() == 0 {
			continue
		}
		qv, err := s.embedQuery(ctx, question)
		if err != nil {
			return nil, err
		}
		if qv == nil {
			continue
		}
		list, err := s.sums.SearchScoped(ctx, qv, depth, scope)
		if err != nil {
			return nil, err
		}
		lists = append(lists, list)
	}
	out := interleave(lists, depth)
	st.SummaryCandidates = len(out)
	st.Summaries = r.now().Sub(t)
	return out, nil
}

// interleave merges ranked lists by rank (the first list's first, the
// second's first, ...), each id once, at most n.
func interleave(lists [][]index.Scored, n int) []index.Scored {
	if len(lists) == 1 {
		return lists[0][:min(n, len(lists[0]))]
	}
	var out []index.Scored
	seen := map[string]bool{}
	for rank := 0; len(out) < n; rank++ {
		more := false
		for _, l := range lists {
			if rank < len(l) {
				more = true
				if !seen[l[rank].ChunkID] {
					seen[l[rank].ChunkID] = true
					out = append(out, l[rank])
				}
			}
		}
		if !more {
			break
		}
	}
	return out[:min(n, len(out))]
}

// extraList is a list fused into a search's ranked list by rank: the
// figure list or the summary list.
type extraList struct {
	list   []index.Scored
	weight float64
	mark   func(c *candidate, rank int)
}

// fuseExtra merges the extra lists into cands, the search's ranked list,
// by Reciprocal Rank Fusion, and returns the result best first: a
// candidate scores 1/(k + its rank in cands) + weight/(k + its rank in
// each extra list). A passage only an extra list found becomes a
// candidate of its own; ties keep the search's order, then the lists'.
// Without any extra list, cands is returned as it is.
func fuseExtra(cands []*candidate, extras ...extraList) []*candidate {
	n := 0
	for _, x := range extras {
		n += len(x.list)
	}
	if n == 0 {
		return cands
	}
	k := float64(DefaultRRFK)
	out := make([]*candidate, 0, len(cands)+n)
	byID := make(map[string]*candidate, len(cands))
	for i, c := range cands {
		cp := *c
		cp.score = 1 / (k + float64(i+1))
		byID[c.id] = &cp
		out = append(out, &cp)
	}
	for _, x := range extras {
		for i, f := range x.list {
			c, ok := byID[f.ChunkID]
			if !ok {
				c = &candidate{id: f.ChunkID}
				byID[f.ChunkID] = c
				out = append(out, c)
			}
			x.mark(c, i+1)
			c.score += x.weight / (k + float64(i+1))
		}
	}
	slices.SortStableFunc(out, func(a, b *candidate) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	return out
}

// summaryDepth is the summary list's depth for SearchOptions.SummaryDepth
// n when the search wants want candidates.
func summaryDepth(n, want int) int {
	switch {
	case n == 0:
		return max(SummaryDepth, want)
	case n < 0:
		return 0
	}
	return n
}

// summaryExtra is the summary list as fuseExtra takes it.
func summaryExtra(sums []index.Scored, weight float64) extraList {
	return extraList{list: sums, weight: weight, mark: func(c *candidate, rank int) { c.summaryRank = rank }}
}
