package index

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/lang/de"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/es"
	"github.com/blevesearch/bleve/v2/analysis/lang/fr"
	"github.com/blevesearch/bleve/v2/analysis/lang/it"
	"github.com/blevesearch/bleve/v2/analysis/lang/nl"
	"github.com/blevesearch/bleve/v2/analysis/lang/pt"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
	bindex "github.com/blevesearch/bleve_index_api"

	"vika/backend/corpus"
)

// BasicAnalyzer is the analyzer of languages without a stemmer here:
// Unicode word breaking and lower case, no stop words, no stemming.
const BasicAnalyzer = "basic"

// DefaultLang is the language assumed for a chunk whose Lang is empty
// (langid could not tell): scientific PDFs are mostly English.
const DefaultLang = "en"

// analyzers maps a chunk's ISO 639-1 language to the bleve analyzer of its
// text: stop words and a stemmer for each language langid detects
// (English: Porter; French: elision, light stemmer).
var analyzers = map[string]string{
	"en": en.AnalyzerName,
	"fr": fr.AnalyzerName,
	"de": de.AnalyzerName,
	"es": es.AnalyzerName,
	"it": it.AnalyzerName,
	"pt": pt.AnalyzerName,
	"nl": nl.AnalyzerName,
}

// Analyzer returns the name of the analyzer Lexical uses for text in
// language lang: the language's own for the languages langid detects,
// DefaultLang's for "", and BasicAnalyzer for any other.
func Analyzer(lang string) string {
	if lang == "" {
		lang = DefaultLang
	}
	if a, ok := analyzers[lang]; ok {
		return a
	}
	return BasicAnalyzer
}

const fieldText = "text"

// shard is the bleve index of the chunks of one analyzer.
type shard struct {
	analyzer string
	idx      bleve.Index
	docs     int // chunks indexed; guarded by the owning Lexical's mu
}

type doc struct {
	Text string `json:"text"`
	// Doc and Page are what a scope filters on (scope.go); not scored.
	Doc  string  `json:"doc"`
	Page float64 `json:"page"`
	Mine bool    `json:"mine"`
}

func newShard(analyzer string) (*shard, error) {
	m, err := newMapping(analyzer)
	if err != nil {
		return nil, err
	}
	idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("create lexical index: %w", err)
	}
	if idx.Mapping().AnalyzerNamed(analyzer) == nil {
		idx.Close()
		return nil, fmt.Errorf("create lexical index: no analyzer %q", analyzer)
	}
	return &shard{analyzer: analyzer, idx: idx}, nil
}

// customAnalyzers are the analyzers the mappings define beyond bleve's.
var customAnalyzers = map[string]map[string]any{
	BasicAnalyzer: {
		"type":          custom.Name,
		"tokenizer":     unicode.Name,
		"token_filters": []any{lowercase.Name},
	},
}

func newMapping(analyzer string) (mapping.IndexMapping, error) {
	m := bleve.NewIndexMapping()
	for name, config := range customAnalyzers {
		if err := m.AddCustomAnalyzer(name, config); err != nil {
			return nil, err
		}
	}
	text := bleve.NewTextFieldMapping()
	text.Analyzer = analyzer
	text.Store = false
	text.IncludeTermVectors = false
	text.IncludeInAll = false
	dm := bleve.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt(fieldText, text)
	addScopeFields(dm)
	m.DefaultMapping = dm
	m.DefaultAnalyzer = analyzer
	m.ScoringModel = bindex.BM25Scoring
	return m, nil
}

// apply indexes chunks and deletes the chunks drop in one bleve batch.
func (s *shard) apply(chunks []corpus.Chunk, drop []string) error {
	b := s.idx.NewBatch()
	for _, id := range drop {
		b.Delete(id)
	}
	for _, c := range chunks {
		if err := b.Index(c.ID, doc{Text: c.Text, Doc: c.DocID, Page: float64(c.Page), Mine: c.Kind == corpus.ChunkMine}); err != nil {
			return fmt.Errorf("index chunk %s: %w", c.ID, err)
		}
	}
	if err := s.idx.Batch(b); err != nil {
		return fmt.Errorf("index batch: %w", err)
	}
	return nil
}

// search returns the k best chunks for q, best first, ties by chunk id.
// bleve breaks ties by its internal document numbers, which follow the
// order its parallel analysis hands a batch back in; and two entries of
// the same text (the whole pages of a repeated slide) were measured to
// differ in the last bits of their scores, differently on each build.
// Either way, which of several equal chunks made the k-th place changed
// from one index build to the next (measured: 20 builds of 200 identical
// chunks gave 20 different top 5s; a slide repeated on many pages of a
// deck is such a tie). search therefore rounds scores to 32 bits of
// mantissa (about 1e-10 relative; see round), asks for one more hit than
// it keeps and, while the k-th and the last score are equal, widens the
// search until the run of equal scores ends; equal scores are then
// ordered by id.
//
// Only the chunks scope keeps are searched (a filter inside the query,
// scoring nothing: see scoped).
func (s *shard) search(ctx context.Context, q string, k int, scope corpus.Scope) ([]Scored, error) {
	mq := query.NewMatchQuery(q)
	mq.SetField(fieldText)
	mq.Analyzer = s.analyzer
	sq := scoped(mq, scope)
	for size := k + 1; ; size *= 2 {
		req := bleve.NewSearchRequestOptions(sq, size, 0, false)
		res, err := s.idx.SearchInContext(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("lexical search: %w", err)
		}
		out := make([]Scored, 0, len(res.Hits))
		for _, h := range res.Hits {
			if math.IsNaN(h.Score) {
				continue
			}
			out = append(out, Scored{ChunkID: h.ID, Score: round(h.Score)})
		}
		if len(res.Hits) == size && len(out) > k && out[k-1].Score == out[len(out)-1].Score {
			continue // the run of scores equal to the k-th goes on past size
		}
		slices.SortFunc(out, byScoreThenID)
		return out[:min(k, len(out))], nil
	}
}

// round clears the low 20 bits of x's 52-bit mantissa: the noise of a
// different summation order goes, any real difference of scores stays.
func round(x float64) float64 {
	return math.Float64frombits(math.Float64bits(x) &^ (1<<20 - 1))
}

// byScoreThenID orders hits best first, equal scores by chunk id.
func byScoreThenID(a, b Scored) int {
	if c := cmp.Compare(b.Score, a.Score); c != 0 {
		return c
	}
	return cmp.Compare(a.ChunkID, b.ChunkID)
}
