package cli

// Experiment (issue 16, fifth round): query expansion, configured by the
// QEXP environment variable. Not for shipping.

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"

	"vika/backend/index"
	"vika/backend/retrieve"
	"vika/backend/wordnet"
)

var (
	qexpOnce  sync.Once
	qexpChunk index.Expander
	qexpWhole index.Expander
	qexpBase  index.Expander
)

func qexpSetup() {
	spec := os.Getenv("QEXP")
	if spec == "" {
		return
	}
	index.ExpandCombine = os.Getenv("QEXP_COMBINE")
	kv := map[string]string{}
	for _, f := range strings.Split(spec, ";") {
		k, v, _ := strings.Cut(f, "=")
		kv[k] = v
	}
	num := func(k string, def float64) float64 {
		if v, ok := kv[k]; ok {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				panic(fmt.Sprintf("QEXP %s: %v", k, err))
			}
			return x
		}
		return def
	}
	m := bleve.NewIndexMapping()
	a := m.AnalyzerNamed(en.AnalyzerName)
	analyze := func(w string) []string {
		var out []string
		for _, t := range a.Analyze([]byte(w)) {
			out = append(out, string(t.Term))
		}
		return out
	}
	all := wordnet.Synonym | wordnet.Hypernym | wordnet.Hyponym | wordnet.Derivation
	tab, err := wordnet.Load("/usr/share/wordnet", analyze, wordnet.Options{Relations: all, Collocations: kv["coll"] == "1"})
	if err != nil {
		panic(err)
	}
	boost := map[wordnet.Relation]float64{
		wordnet.Synonym: num("syn", 0), wordnet.Hypernym: num("hyper", 0),
		wordnet.Hyponym: num("hypo", 0), wordnet.Derivation: num("deriv", 0),
	}
	mk := func(scale float64) *wordnet.Expander {
		b := map[wordnet.Relation]float64{}
		for r, w := range boost {
			b[r] = w * scale
		}
		e := &wordnet.Expander{Table: tab, Analyzer: en.AnalyzerName, Rare: num("rare", -1), Max: int(num("max", 0)),
			Senses: int(num("senses", 0)), Boost: b, MaxFan: int(num("fan", 0)), Spread: kv["spread"] == "1", Spelling: kv["spell"] == "1"}
		if kv["log"] == "1" {
			e.Log = func(t string, added []index.Boosted) { fmt.Fprintf(os.Stderr, "qexp %s -> %v\n", t, added) }
		}
		return e
	}
	if num("chunks", 1) > 0 {
		qexpChunk = mk(num("chunks", 1))
	}
	if num("whole", 1) > 0 {
		qexpWhole = mk(num("whole", 1))
	}
	if num("base", 0) > 0 {
		qexpBase = mk(1)
	}
}

// qexpApply sets the experiment's expanders on d's indexes.
func qexpApply(lex, whole *index.Lexical, r *retrieve.Retriever) {
	qexpOnce.Do(qexpSetup)
	if qexpChunk != nil {
		lex.SetExpander(qexpChunk)
	}
	if qexpWhole != nil {
		r.SetExpander(qexpWhole)
	}
	if qexpBase != nil {
		whole.SetExpander(qexpBase)
	}
}
