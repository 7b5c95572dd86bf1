package retrieve

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"

	"vika/backend/corpus"
	"vika/backend/index"
)

// PageRanking says how a search orders chunks by the pages they come from.
// A citation names a page, and an answer's prompt holds a handful of
// passages: on a long document, five chunks of one page would crowd out
// the other pages, and a page whose several chunks all match is a better
// page than one with a single lucky chunk.
//
// Over the best Window candidates of a mode (after fusion in hybrid mode),
// each score is mapped onto [0, 1] (the Window-th score is 0, the best 1)
// and a page scores its best chunk plus Share times the sum of its other
// chunks, a table's, figure's or formula's passage excepted (its text
// repeats its page's). Pages are ranked by that score. With Diverse, the best chunk of
// every page comes before the second chunk of any page; without it, a
// page's chunks stay together. Candidates past the window keep their order
// after it. With WholePages, bm25 and hybrid searches also rank whole
// pages with BM25 (a second lexical index, one entry per page holding
// the text of its chunks, region passages excepted) and order the pages of the window by Reciprocal
// Rank Fusion (k = DefaultRRFK) of their rank by chunks and WholeWeight
// (0 counts as 1) times their rank as whole pages. With Bring, the pages
// among the first Bring of the whole-page list that no chunk of the
// window is on join that fusion by their whole-page rank alone, each
// with its chunks found past the window (or, when none was, its passages
// in page order): a page whose text matches as a whole is not lost
// because each of its chunks holds only part of the match. The zero
// value changes nothing.
type PageRanking struct {
	Share       float64 `json:"share"`
	Window      int     `json:"window"`
	Diverse     bool    `json:"diverse"`
	WholePages  bool    `json:"whole_pages"`
	Bring       int     `json:"bring"`
	WholeWeight float64 `json:"whole_weight"`
	// Okapi scores the whole pages by the textbook BM25 (index.Okapi)
	// instead of bleve's (index.Lexical's sqrt frequency and coordination);
	// the Retriever must keep them (Options.OkapiPages).
	Okapi bool `json:"okapi,omitempty"`
	// Convex, when above 0, fuses the pages by score instead of rank:
	// (1-Convex) times the page's score by chunks (over the window, in
	// [0, 1]) plus Convex times its whole-page score over the list's best
	// (a brought page's score by chunks is 0).
	Convex float64 `json:"convex,omitempty"`
}

// DefaultPageRanking is the ranking of a Retriever whose Options set none,
// measured on the tuning half of backend/eval's question set (docs/eval/PAGES.md).
var DefaultPageRanking = PageRanking{Share: 0.1, Window: 50, Diverse: true, WholePages: true}

func (p PageRanking) off() bool { return p.Share == 0 && !p.Diverse && !p.WholePages }

// pageKey names one page of one document.
type pageKey struct {
	doc  string
	page int
}

// pageBook maps chunk ids to their pages and keeps the text of each page's
// chunks (for the whole-page index). A Retriever and its copies
// (WithProfile, WithPages) share one.
type pageBook struct {
	mu     sync.RWMutex
	byID   map[string]pageKey
	byDocs map[string][]string // chunk ids of each document
	texts  map[pageKey]map[string]pageChunk
	byPage map[string]pageKey // whole-page entry id -> page
	// regions marks the passages of tables, figures and formulas: their
	// text repeats their page's, so they count once with it (never in a
	// page's share, never in its whole-page entry).
	regions map[string]bool
	// regionTexts holds the text and label of each region passage
	// (regions.go).
	regionTexts map[string]regionEntry
	// captions holds the labels of the captions body passages hold
	// (captionLabels), for the regions no region passage stands for.
	captions map[string][]corpus.Label
	// refs marks the passages of reference lists (references.go).
	refs map[string]bool
	// langs holds the languages of each document's passages (those with a
	// page and those without), for the questions' language (languages).
	langs map[string]map[string]bool
	// mine marks the student's own passages (mine.go).
	mine map[string]bool
}

// pageChunk is what a page's entry in the whole-page index needs of one
// of its chunks.
type pageChunk struct {
	start          int
	id, text, lang string
}

func newPageBook() *pageBook {
	return &pageBook{byID: map[string]pageKey{}, byDocs: map[string][]string{},
		texts: map[pageKey]map[string]pageChunk{}, byPage: map[string]pageKey{}, regions: map[string]bool{}, regionTexts: map[string]regionEntry{}, refs: map[string]bool{},
		captions: map[string][]corpus.Label{}, langs: map[string]map[string]bool{}, mine: map[string]bool{}}
}

// add records chunks and returns the whole-page entries of the pages they
// are on, made of every chunk known on each page, in page order.
func (b *pageBook) add(chunks []corpus.Chunk) []corpus.Chunk {
	b.mu.Lock()
	defer b.mu.Unlock()
	var touched []pageKey
	for _, c := range chunks {
		if c.Lang != "" {
			if b.langs[c.DocID] == nil {
				b.langs[c.DocID] = map[string]bool{}
			}
			b.langs[c.DocID][c.Lang] = true
		}
		if c.Page < 1 {
			continue // a passage without a page (a BEIR document) is a page of its own
		}
		if listsReferences(c) {
			b.refs[c.ID] = true
		} else {
			delete(b.refs, c.ID)
		}
		k := pageKey{doc: c.DocID, page: c.Page}
		if old, ok := b.byID[c.ID]; !ok {
			b.byDocs[c.DocID] = append(b.byDocs[c.DocID], c.ID)
		} else if old != k {
			delete(b.texts[old], c.ID)
			touched = append(touched, old)
		}
		b.byID[c.ID] = k
		b.markMine(c)
		if c.Kind.IsRegion() {
			b.regions[c.ID] = true
			b.regionTexts[c.ID] = regionEntry{text: c.Text, label: labelOf(c), described: c.Described()}
			continue
		}
		if ls := captionLabels(c.Text); len(ls) > 0 {
			b.captions[c.ID] = ls
		} else {
			delete(b.captions, c.ID)
		}
		if b.texts[k] == nil {
			b.texts[k] = map[string]pageChunk{}
		}
		b.texts[k][c.ID] = pageChunk{start: c.CharStart, id: c.ID, text: c.Text, lang: c.Lang}
		touched = append(touched, k)
	}
	var out []corpus.Chunk
	seen := map[pageKey]bool{}
	for _, k := range touched {
		if seen[k] {
			continue
		}
		seen[k] = true
		parts := make([]pageChunk, 0, len(b.texts[k]))
		for _, pc := range b.texts[k] {
			parts = append(parts, pc)
		}
		slices.SortFunc(parts, func(x, y pageChunk) int { // chunks of a region may share a start
			return cmp.Or(cmp.Compare(x.start, y.start), cmp.Compare(x.id, y.id))
		})
		texts := make([]string, len(parts))
		for i, pc := range parts {
			texts[i] = pc.text
		}
		lang := ""
		if len(parts) > 0 {
			lang = parts[0].lang
		}
		id := fmt.Sprintf("%s#p%d", k.doc, k.page)
		b.byPage[id] = k
		out = append(out, corpus.Chunk{ID: id, DocID: k.doc, Page: k.page, Lang: lang, Text: strings.Join(texts, "\n")})
	}
	return out
}

func (b *pageBook) deleteDoc(docID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, id := range b.byDocs[docID] {
		if k, ok := b.byID[id]; ok {
			delete(b.texts, k)
			delete(b.byPage, fmt.Sprintf("%s#p%d", k.doc, k.page))
		}
		delete(b.byID, id)
		delete(b.regions, id)
		delete(b.regionTexts, id)
		delete(b.captions, id)
		delete(b.refs, id)
		delete(b.mine, id)
	}
	delete(b.byDocs, docID)
	delete(b.langs, docID)
}

// languages returns the languages of the passages indexed, sorted.
func (b *pageBook) languages() []string {
	b.mu.RLock()
	defer b.mu.RUnlock()
	var out []string
	for _, ls := range b.langs {
		for l := range ls {
			if !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	slices.Sort(out)
	return out
}

// pageRanks returns the 1-based rank of each page in a whole-page search.
func (b *pageBook) pageRanks(list []index.Scored) map[pageKey]int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	out := make(map[pageKey]int, len(list))
	for i, s := range list {
		if k, ok := b.byPage[s.ChunkID]; ok {
			out[k] = i + 1
		}
	}
	return out
}

// pageScores is the whole-page list's score of each page over the list's
// best score.
func (b *pageBook) pageScores(list []index.Scored) map[pageKey]float64 {
	b.mu.RLock()
	defer b.mu.RUnlock()
	out := make(map[pageKey]float64, len(list))
	hi := 0.0
	for _, s := range list {
		hi = max(hi, s.Score)
	}
	for _, s := range list {
		if k, ok := b.byPage[s.ChunkID]; ok && hi > 0 {
			out[k] = s.Score / hi
		}
	}
	return out
}

// keys returns the page of each candidate (a chunk the book does not
// know, or one without a page number, is a page of its own) and whether
// it is a region passage.
func (b *pageBook) keys(cands []*candidate) ([]pageKey, []bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	out := make([]pageKey, len(cands))
	region := make([]bool, len(cands))
	for i, c := range cands {
		k, ok := b.byID[c.id]
		if !ok {
			k = pageKey{doc: "\x00" + c.id}
		}
		out[i], region[i] = k, b.regions[c.id]
	}
	return out, region
}

// inLexical reports whether a chunk goes into the BM25 index, inDense whether
// it goes into the dense one. A display formula's passage is not a BM25
// passage: its text is a line of symbols that the page's own passage
// already holds, with the words around it, and as BM25 documents of their
// own (73 on the 85 slides of a French statistics deck, 23 runes on
// average) formula passages changed the statistics (document count,
// document frequencies, mean length) by which every passage of the
// document is scored, which moved answer pages down (backend/eval/
// docs/eval/PAGES.md, "Region passages"). A dense index scores each passage alone,
// so it keeps them. A formula's LaTeX, written by a vision model when the
// student asks for it (corpus.Chunk.Described), is a BM25 passage: its
// command names ("frac", "sigma") are words no other passage holds, and
// there is one per transcribed formula, not one per formula of the deck.
// A passage without text (a figure with neither caption nor words in it)
// is in neither: nothing can match it. All stay in the store, shown and
// highlighted by the viewer, and known to their page.
func inLexical(c corpus.Chunk) bool {
	return (c.Kind != corpus.ChunkFormula || c.Described()) && inDense(c)
}

func inDense(c corpus.Chunk) bool { return strings.TrimSpace(c.Text) != "" }

// only returns the chunks of chunks that keep says are indexed (and
// their vectors, when vecs is not nil); chunks itself when all are.
func only(keep func(corpus.Chunk) bool, chunks []corpus.Chunk, vecs [][]float32) ([]corpus.Chunk, [][]float32) {
	if !slices.ContainsFunc(chunks, func(c corpus.Chunk) bool { return !keep(c) }) {
		return chunks, vecs
	}
	cs := make([]corpus.Chunk, 0, len(chunks))
	var vs [][]float32
	for i, c := range chunks {
		if !keep(c) {
			continue
		}
		cs = append(cs, c)
		if vecs != nil {
			vs = append(vs, vecs[i])
		}
	}
	return cs, vs
}

// rankPages reorders cands (best first) by p; see PageRanking. whole holds
// the rank of pages in a whole-page search (nil without one), wholeScore
// their scores over the best (used by p.Convex; nil otherwise).
func rankPages(cands []*candidate, p PageRanking, book *pageBook, whole map[pageKey]int, wholeScore map[pageKey]float64) []*candidate {
	if p.off() || len(cands) < 2 {
		return cands
	}
	w := len(cands)
	if p.Window > 0 {
		w = min(w, p.Window)
	}
	pages := windowPages(cands[:w], p.Share, book)
	rest := cands[w:]
	if whole != nil {
		var brought []*rankedPage
		brought, rest = bringPages(pages, rest, p.bring(), book, whole)
		if p.Convex > 0 && wholeScore != nil {
			pages = fuseConvex(pages, brought, p.Convex, wholeScore)
		} else {
			pages = fusePages(pages, brought, p.wholeWeight(), whole)
		}
	}
	n := 0
	for _, pg := range pages {
		n += len(pg.chunks)
	}
	out := make([]*candidate, 0, n+len(rest))
	if p.Diverse {
		for round := 0; len(out) < n; round++ {
			for _, pg := range pages {
				if round < len(pg.chunks) {
					out = append(out, pg.chunks[round])
				}
			}
		}
	} else {
		for _, pg := range pages {
			out = append(out, pg.chunks...)
		}
	}
	return append(out, rest...)
}

// rankedPage is one page of rankPages: its chunks among the candidates
// (best first), the position of its best chunk in the window (-1 for a
// page the whole-page list brought) and its score by chunks.
type rankedPage struct {
	key    pageKey
	first  int
	score  float64
	chunks []*candidate
}

// windowPages groups the candidates of the window by page and ranks the
// pages by their best chunk plus share times their other chunks (scores
// mapped onto [0, 1] over the window); with share 0 pages keep the order
// of their best chunks.
func windowPages(top []*candidate, share float64, book *pageBook) []*rankedPage {
	keys, region := book.keys(top)
	hi, lo := top[0].score, top[0].score
	for _, c := range top {
		hi, lo = max(hi, c.score), min(lo, c.score)
	}
	norm := func(s float64) float64 {
		if hi == lo {
			return 1
		}
		return (s - lo) / (hi - lo)
	}
	var pages []*rankedPage
	byKey := map[pageKey]*rankedPage{}
	for i, c := range top {
		pg := byKey[keys[i]]
		if pg == nil {
			pg = &rankedPage{key: keys[i], first: i, score: norm(c.score)}
			byKey[keys[i]] = pg
			pages = append(pages, pg)
		} else if !region[i] { // a region's passage repeats its page: no second vote
			pg.score += share * norm(c.score)
		}
		pg.chunks = append(pg.chunks, c)
	}
	if share != 0 {
		slices.SortStableFunc(pages, func(a, b *rankedPage) int {
			if c := cmp.Compare(b.score, a.score); c != 0 {
				return c
			}
			return cmp.Compare(a.first, b.first)
		})
	}
	return pages
}

// putFirst returns cands with the passages front names first, in that
// order: each a candidate of cands (pos holds their positions) or, when
// not among them, an unscored one the question named.
func putFirst(cands []*candidate, front []string, pos map[string]int) []*candidate {
	if len(front) == 0 {
		return cands
	}
	out := make([]*candidate, 0, len(cands)+len(front))
	for _, id := range front {
		if p, ok := pos[id]; ok {
			out = append(out, cands[p])
		} else {
			out = append(out, &candidate{id: id, named: true})
		}
	}
	for _, c := range cands {
		if !slices.Contains(front, c.id) {
			out = append(out, c)
		}
	}
	return out
}
