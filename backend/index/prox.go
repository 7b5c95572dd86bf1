package index

// Measuring code for issue 16's sixth round (proximity and phrase boosts).
// Switched by environment variables without the VIKA_ prefix (a throwaway
// experiment, not a setting): PROX_MODE selects the variant (empty: off),
// PROX_W its weight, PROX_WHERE the indexes it applies to ("chunks",
// "whole" or "both"), PROX_N the candidates rescored, PROX_TV=0 leaves the
// term vectors out of the mapping (they are in by default on this branch).
//
// Variants:
//   - bphrase: bleve SHOULD clause, a match-phrase query of the whole
//     question boosted by w next to the match query (bleve's coord halves
//     the score of a passage without the phrase);
//   - bbigram: one SHOULD multi-phrase clause per pair of adjacent question
//     terms (the question's gaps kept), each boosted by w;
//   - phrase, bigram, bigram8, mindist, cover: a rescoring of the first N
//     BM25 candidates from their term positions, score += w * top * f with
//     top the best BM25 score of the list and f in [0, 1]: phrase 1 when
//     the whole analysed question occurs with its gaps; bigram the share of
//     adjacent question-term pairs found in order at most one position
//     further apart than in the question; bigram8 the same, either order,
//     within 8 positions; mindist Tao and Zhai's log(a + exp(-d)) of the
//     smallest distance between two distinct question terms (a 0.3),
//     scaled to [0, 1]; cover m / L for the smallest window L covering the
//     m distinct question terms the passage holds (m >= 2).

import (
	"math"
	"os"
	"slices"
	"strconv"
	"sync"

	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
)

type proxConfig struct {
	mode  string
	w     float64
	where string
	n     int
}

// termVectors is whether new shards keep term positions (PROX_TV=0: no).
var termVectors = os.Getenv("PROX_TV") != "0"

var (
	proxOnce sync.Once
	proxCfg  proxConfig
)

func prox() proxConfig {
	proxOnce.Do(func() {
		proxCfg = proxConfig{mode: os.Getenv("PROX_MODE"), w: 0.1, where: "chunks", n: 100}
		if v, err := strconv.ParseFloat(os.Getenv("PROX_W"), 64); err == nil {
			proxCfg.w = v
		}
		if v := os.Getenv("PROX_WHERE"); v != "" {
			proxCfg.where = v
		}
		if v, err := strconv.Atoi(os.Getenv("PROX_N")); err == nil && v > 0 {
			proxCfg.n = v
		}
	})
	return proxCfg
}

// SetRole names what the index holds ("chunks", "whole"), for the
// measuring switches above.
func (l *Lexical) SetRole(role string) {
	l.mu.Lock()
	l.role = role
	l.mu.Unlock()
}

func (c proxConfig) on(role string) bool {
	return c.mode != "" && role != "" && (c.where == "both" || c.where == role)
}

func (c proxConfig) rescores() bool {
	return c.mode != "bphrase" && c.mode != "bbigram"
}

// qterm is an analysed question term and its position.
type qterm struct {
	term string
	pos  int
}

func (s *shard) analyse(q string) []qterm {
	a := s.idx.Mapping().AnalyzerNamed(s.analyzer)
	if a == nil {
		return nil
	}
	var out []qterm
	for _, t := range a.Analyze([]byte(q)) {
		out = append(out, qterm{string(t.Term), t.Position})
	}
	return out
}

// proxQuery returns the bleve query of the b* variants.
func (s *shard) proxQuery(base query.Query, q string, c proxConfig) query.Query {
	should := []query.Query{base}
	switch c.mode {
	case "bphrase":
		p := query.NewMatchPhraseQuery(q)
		p.SetField(fieldText)
		p.Analyzer = s.analyzer
		p.SetBoost(c.w)
		should = append(should, p)
	case "bbigram":
		ts := s.analyse(q)
		for i := 0; i+1 < len(ts); i++ {
			gap := ts[i+1].pos - ts[i].pos
			if gap < 1 {
				continue
			}
			terms := make([][]string, gap+1)
			terms[0], terms[gap] = []string{ts[i].term}, []string{ts[i+1].term}
			p := query.NewMultiPhraseQuery(terms, fieldText)
			p.SetBoost(c.w)
			should = append(should, p)
		}
	}
	if len(should) == 1 {
		return base
	}
	return query.NewBooleanQuery(nil, should, nil)
}

// rescore adds the proximity feature to hits (already rounded scores).
func rescore(hits search.DocumentMatchCollection, scores []Scored, qs []qterm, c proxConfig) {
	if len(scores) == 0 {
		return
	}
	top := 0.0
	for _, s := range scores {
		top = max(top, s.Score)
	}
	byID := map[string]search.TermLocationMap{}
	for _, h := range hits {
		byID[h.ID] = h.Locations[fieldText]
	}
	for i := range scores {
		f := feature(byID[scores[i].ChunkID], qs, c.mode)
		scores[i].Score = round(scores[i].Score + c.w*top*f)
	}
}

func positions(locs search.TermLocationMap, term string) []int {
	var out []int
	for _, l := range locs[term] {
		out = append(out, int(l.Pos))
	}
	slices.Sort(out)
	return out
}

func feature(locs search.TermLocationMap, qs []qterm, mode string) float64 {
	if len(locs) == 0 || len(qs) == 0 {
		return 0
	}
	switch mode {
	case "phrase":
		first := positions(locs, qs[0].term)
		for _, p := range first {
			ok := true
			for _, t := range qs[1:] {
				if !slices.Contains(positions(locs, t.term), p+t.pos-qs[0].pos) {
					ok = false
					break
				}
			}
			if ok {
				return 1
			}
		}
		return 0
	case "bigram", "bigram8":
		pairs, found := 0, 0
		for i := 0; i+1 < len(qs); i++ {
			a, b := qs[i], qs[i+1]
			if a.term == b.term {
				continue
			}
			pairs++
			gap := b.pos - a.pos
			if near(positions(locs, a.term), positions(locs, b.term), gap, mode == "bigram8") {
				found++
			}
		}
		if pairs == 0 {
			return 0
		}
		return float64(found) / float64(pairs)
	case "mindist":
		d := minDist(locs, qs)
		if d == 0 {
			return 0
		}
		const a = 0.3
		return (math.Log(a+math.Exp(-float64(d))) - math.Log(a)) / (math.Log(a+math.Exp(-1)) - math.Log(a))
	case "cover":
		return cover(locs, qs)
	}
	return 0
}

// near reports whether b follows a within gap+1 positions (ordered) or,
// unordered, lies within 8 positions of it.
func near(as, bs []int, gap int, unordered bool) bool {
	for _, x := range as {
		for _, y := range bs {
			d := y - x
			if unordered {
				if d != 0 && d >= -8 && d <= 8 {
					return true
				}
			} else if d >= 1 && d <= max(gap, 1)+1 {
				return true
			}
		}
	}
	return false
}

// occ is one occurrence of a distinct question term in a passage.
type occ struct{ pos, term int }

func occurrences(locs search.TermLocationMap, qs []qterm) ([]occ, int) {
	seen := map[string]int{}
	var out []occ
	for _, q := range qs {
		if _, ok := seen[q.term]; ok {
			continue
		}
		ps := positions(locs, q.term)
		if len(ps) == 0 {
			continue
		}
		id := len(seen)
		seen[q.term] = id
		for _, p := range ps {
			out = append(out, occ{p, id})
		}
	}
	slices.SortFunc(out, func(a, b occ) int { return a.pos - b.pos })
	return out, len(seen)
}

// minDist is the smallest distance between occurrences of two distinct
// question terms (0 when fewer than two are present).
func minDist(locs search.TermLocationMap, qs []qterm) int {
	os, m := occurrences(locs, qs)
	if m < 2 {
		return 0
	}
	best := 0
	for i := 1; i < len(os); i++ {
		if os[i].term != os[i-1].term {
			if d := os[i].pos - os[i-1].pos; best == 0 || d < best {
				best = d
			}
		}
	}
	return best
}

// cover is m / L for the smallest window of L positions holding all m
// distinct question terms the passage holds (0 when m < 2).
func cover(locs search.TermLocationMap, qs []qterm) float64 {
	os, m := occurrences(locs, qs)
	if m < 2 {
		return 0
	}
	count := make([]int, m)
	have, best, lo := 0, math.MaxInt, 0
	for hi := range os {
		if count[os[hi].term] == 0 {
			have++
		}
		count[os[hi].term]++
		for have == m {
			best = min(best, os[hi].pos-os[lo].pos+1)
			count[os[lo].term]--
			if count[os[lo].term] == 0 {
				have--
			}
			lo++
		}
	}
	return float64(m) / float64(best)
}
