package index

import (
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"

	"vika/backend/corpus"
)

// Fields a scope filters on: a chunk's document id (one keyword), page,
// and whether it is the student's own (corpus.ChunkMine).
const (
	fieldDoc  = "doc"
	fieldPage = "page"
	fieldMine = "mine"
)

func addScopeFields(dm *mapping.DocumentMapping) {
	d := bleve.NewKeywordFieldMapping()
	d.Store, d.IncludeInAll, d.IncludeTermVectors = false, false, false
	dm.AddFieldMappingsAt(fieldDoc, d)
	p := bleve.NewNumericFieldMapping()
	p.Store, p.IncludeInAll = false, false
	dm.AddFieldMappingsAt(fieldPage, p)
	m := bleve.NewBooleanFieldMapping()
	m.Store, m.IncludeInAll = false, false
	dm.AddFieldMappingsAt(fieldMine, m)
}

// scoped is q restricted to the chunks scope keeps: (doc is one of
// scope.Docs) AND (page in [From, To]) AND (mine, when scope.Mine) as the filter of a boolean query
// (bleve runs a filter unscored), so a kept chunk scores what q alone
// gives it.
func scoped(q query.Query, scope corpus.Scope) query.Query {
	if scope.All() {
		return q
	}
	var parts []query.Query
	if len(scope.Docs) > 0 {
		terms := make([]query.Query, len(scope.Docs))
		for i, id := range scope.Docs {
			t := query.NewTermQuery(id)
			t.SetField(fieldDoc)
			terms[i] = t
		}
		parts = append(parts, query.NewDisjunctionQuery(terms))
	}
	if scope.Paged() {
		from := float64(max(scope.From, 1))
		var to *float64
		if scope.To > 0 {
			v := float64(scope.To)
			to = &v
		}
		yes := true
		pages := query.NewNumericRangeInclusiveQuery(&from, to, &yes, &yes)
		pages.SetField(fieldPage)
		parts = append(parts, pages)
	}
	if scope.Mine {
		m := query.NewBoolFieldQuery(true)
		m.SetField(fieldMine)
		parts = append(parts, m)
	}
	b := query.NewBooleanQuery([]query.Query{q}, nil, nil)
	b.AddFilter(query.NewConjunctionQuery(parts))
	return b
}
