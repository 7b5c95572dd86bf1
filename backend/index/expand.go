package index

import (
	"context"
	"fmt"
	"slices"

	"github.com/blevesearch/bleve/v2"

	"github.com/blevesearch/bleve/v2/search/query"
)

// Boosted is a term added to a query with its boost.
type Boosted struct {
	Term  string
	Boost float64
	For   string // the query term it expands
}

// ExpandCombine is how expansion scores join (experiment): "" counts an
// expansion term as one more query term (bleve's disjunction, coord
// included); "sum" adds the expansion terms' scores to the match query's
// score, without coord; "slot" scores each query term as the best of
// itself and its expansions, coord over query terms.
var ExpandCombine = ""

// Expander adds terms to a BM25 query: given the query's analyzed terms
// (in the analyzer's order, repeats kept), the shard's analyzer and the
// shard's document frequencies, it returns the terms to add.
type Expander interface {
	Expand(analyzer, q string, terms []string, df func(term string) int, docs int) []Boosted
}

// SetExpander makes every later search expand its query with e (nil: none).
func (l *Lexical) SetExpander(e Expander) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.expand = e
}

// expandedQuery returns the query of q with e's terms, or nil when e adds
// none. Without additions it equals bleve's match query: one term query
// per token, in a disjunction of at least one.
func (s *shard) expandedQuery(ctx context.Context, q string, e Expander) query.Query {
	qq, _, _ := s.expandedParts(ctx, q, e)
	if qq == nil {
		return nil
	}
	return qq
}

// expandedParts returns the expanded query, the query's terms and the
// added terms (nil query when none is added).
func (s *shard) expandedParts(ctx context.Context, q string, e Expander) (*query.DisjunctionQuery, []string, []Boosted) {
	a := s.idx.Mapping().AnalyzerNamed(s.analyzer)
	if a == nil {
		return nil, nil, nil
	}
	var terms []string
	for _, tok := range a.Analyze([]byte(q)) {
		terms = append(terms, string(tok.Term))
	}
	if len(terms) == 0 {
		return nil, nil, nil
	}
	ix, err := s.idx.Advanced()
	if err != nil {
		return nil, nil, nil
	}
	r, err := ix.Reader()
	if err != nil {
		return nil, nil, nil
	}
	defer r.Close()
	docs, _ := r.DocCount()
	df := func(term string) int {
		tfr, err := r.TermFieldReader(ctx, []byte(term), fieldText, false, false, false)
		if err != nil {
			return 0
		}
		defer tfr.Close()
		return int(tfr.Count())
	}
	add := e.Expand(s.analyzer, q, terms, df, int(docs))
	if len(add) == 0 {
		return nil, nil, nil
	}
	qs := make([]query.Query, 0, len(terms)+len(add))
	for _, t := range terms {
		tq := query.NewTermQuery(t)
		tq.SetField(fieldText)
		qs = append(qs, tq)
	}
	for _, b := range add {
		tq := query.NewTermQuery(b.Term)
		tq.SetField(fieldText)
		tq.SetBoost(b.Boost)
		qs = append(qs, tq)
	}
	d := query.NewDisjunctionQuery(qs)
	d.SetMin(1)
	return d, terms, add
}

// combinedSearch scores every matching document by ExpandCombine from the
// per-term scores of the expanded query; ok false when nothing is added.
func (s *shard) combinedSearch(ctx context.Context, q string, k int, e Expander) ([]Scored, bool, error) {
	d, terms, add := s.expandedParts(ctx, q, e)
	if d == nil {
		return nil, false, nil
	}
	d.RetrieveScoreBreakdown(true)
	n, err := s.idx.DocCount()
	if err != nil {
		return nil, true, err
	}
	req := bleve.NewSearchRequestOptions(d, int(n)+1, 0, false)
	res, err := s.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, true, fmt.Errorf("lexical search: %w", err)
	}
	slot := map[string]int{} // query term -> its first position
	for i, t := range terms {
		if _, ok := slot[t]; !ok {
			slot[t] = i
		}
	}
	out := make([]Scored, 0, len(res.Hits))
	for _, h := range res.Hits {
		var sum float64
		var matched int
		best := make([]float64, len(terms))
		for i := range terms {
			if v, ok := h.ScoreBreakdown[i]; ok {
				best[i] = v
			}
		}
		var extra float64
		for j, b := range add {
			v, ok := h.ScoreBreakdown[len(terms)+j]
			if !ok {
				continue
			}
			extra += v
			if i, ok := slot[b.For]; ok && v > best[i] {
				best[i] = v
			}
		}
		switch ExpandCombine {
		case "slot":
			for _, v := range best {
				if v > 0 {
					sum += v
					matched++
				}
			}
			sum *= float64(matched) / float64(len(terms))
		default: // "sum"
			for i := range terms {
				if v, ok := h.ScoreBreakdown[i]; ok {
					sum += v
					matched++
				}
			}
			sum = sum*float64(matched)/float64(len(terms)) + extra
		}
		if sum > 0 {
			out = append(out, Scored{ChunkID: h.ID, Score: round(sum)})
		}
	}
	slices.SortFunc(out, byScoreThenID)
	return out[:min(k, len(out))], true, nil
}
