package index

import (
	"context"

	"github.com/blevesearch/bleve/v2/search/query"
)

// Boosted is a term added to a query with its boost.
type Boosted struct {
	Term  string
	Boost float64
}

// Expander adds terms to a BM25 query: given the query's analyzed terms
// (in the analyzer's order, repeats kept), the shard's analyzer and the
// shard's document frequencies, it returns the terms to add.
type Expander interface {
	Expand(analyzer string, terms []string, df func(term string) int, docs int) []Boosted
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
	a := s.idx.Mapping().AnalyzerNamed(s.analyzer)
	if a == nil {
		return nil
	}
	var terms []string
	for _, tok := range a.Analyze([]byte(q)) {
		terms = append(terms, string(tok.Term))
	}
	if len(terms) == 0 {
		return nil
	}
	ix, err := s.idx.Advanced()
	if err != nil {
		return nil
	}
	r, err := ix.Reader()
	if err != nil {
		return nil
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
	add := e.Expand(s.analyzer, terms, df, int(docs))
	if len(add) == 0 {
		return nil
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
	return d
}
