package index

import (
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/mapping"
)

// analyzersByName holds the analyzers Terms has used, by name; guarded
// by analyzersMu.
var (
	analyzersMu     sync.Mutex
	analyzersByName = map[string]analysis.Analyzer{}
)

// Terms returns the distinct terms the lexical index makes of text in
// language lang: the words its analyzer keeps (stop words dropped,
// stemmed for the languages that have a stemmer), so that two texts can be
// compared by the words a BM25 search would match in them. An analyzer
// that cannot be built gives no terms.
func Terms(lang, text string) map[string]bool {
	a := analyzerOf(Analyzer(lang))
	out := map[string]bool{}
	if a == nil {
		return out
	}
	for _, tok := range a.Analyze([]byte(text)) {
		out[string(tok.Term)] = true
	}
	return out
}

func analyzerOf(name string) analysis.Analyzer {
	analyzersMu.Lock()
	defer analyzersMu.Unlock()
	if a, ok := analyzersByName[name]; ok {
		return a
	}
	m, err := newMapping(name)
	if err != nil {
		return nil
	}
	impl, ok := m.(*mapping.IndexMappingImpl)
	if !ok {
		return nil
	}
	a := impl.AnalyzerNamed(name)
	analyzersByName[name] = a
	return a
}
