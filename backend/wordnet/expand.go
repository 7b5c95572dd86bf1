package wordnet

import "vika/backend/index"

// Expander expands the English terms of a BM25 query with related terms
// from a Table.
type Expander struct {
	Table    Table
	Analyzer string  // the analyzer whose queries are expanded (English)
	Rare     float64 // expand a term whose document share is at most Rare (< 0: every term)
	Max      int     // related terms per query term, at most (<= 0: all)
	Boost    map[Relation]float64
	Senses   int // senses of the query term used; <= 0: all
	// MaxFan skips a query term with more related terms in the index
	// than MaxFan (an ambiguous word); <= 0: no limit.
	MaxFan int
	// Spread divides each added term's boost by the number of terms
	// added for its query term.
	Spread bool
	// Spelling keeps only synonyms spelt nearly the same (at most two
	// edits: British and American spellings).
	Spelling bool
	Log      func(term string, added []index.Boosted)
}

// Expand implements index.Expander.
func (e *Expander) Expand(analyzer, _ string, terms []string, df func(string) int, docs int) []index.Boosted {
	if analyzer != e.Analyzer || docs == 0 {
		return nil
	}
	in := map[string]bool{}
	for _, t := range terms {
		in[t] = true
	}
	var out []index.Boosted
	done := map[string]bool{}
	for _, t := range terms {
		if done[t] {
			continue
		}
		done[t] = true
		if e.Rare >= 0 && float64(df(t))/float64(docs) > e.Rare {
			continue
		}
		var added []index.Boosted
		for _, r := range e.Table[t] {
			if e.Max > 0 && len(added) >= e.Max {
				break
			}
			b, ok := e.Boost[r.Rel]
			if !ok || b == 0 || in[r.Term] || (e.Senses > 0 && r.Sense > e.Senses) {
				continue
			}
			if e.Spelling && (r.Rel != Synonym || edits(r.From, r.Word) > 2) {
				continue
			}
			if df(r.Term) == 0 {
				continue
			}
			in[r.Term] = true
			added = append(added, index.Boosted{Term: r.Term, Boost: b, For: t})
		}
		if e.MaxFan > 0 && len(added) > e.MaxFan {
			continue
		}
		if e.Spread {
			for i := range added {
				added[i].Boost /= float64(len(added))
			}
		}
		if e.Log != nil && len(added) > 0 {
			e.Log(t, added)
		}
		out = append(out, added...)
	}
	return out
}

// edits is the Levenshtein distance of a and b.
func edits(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := prev[j-1]
			if ra[i-1] != rb[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
