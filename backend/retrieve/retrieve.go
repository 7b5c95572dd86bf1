// Package retrieve finds the chunks that best answer a question. A
// Retriever combines the lexical index (BM25, per-language analyzers), one
// exact dense index per embedding model, and searches in one of three
// modes: dense, bm25, or hybrid, which fuses the candidates of both
// (convex combination of normalised scores or Reciprocal Rank Fusion,
// weighted per embedding model by measurement: see Profile). Candidates
// are then ranked by page (PageRanking: a whole-page BM25 index fused with
// the chunks' ranking, page-diverse passages). Chunks are
// routed to an embedding model by language (see Space). An optional
// cross-encoder then rescores the best fused candidates (see
// SearchOptions.Rerank, reading the passages through Passages). A question
// searched with expansions (Query: a HyDE passage, rephrasings) goes
// through SearchQuery, which fuses their searches by Reciprocal Rank
// Fusion, reranks against the question itself and scores the hits for it.
// With a text-to-image model (Options.Figures: CLIP), the figures nearest
// the question by their crops' image vectors join hybrid and dense
// searches as a list of their own, by Reciprocal Rank Fusion (Figures).
// A table, figure or formula that the question names ("Table 3",
// "le tableau 2", "eq. (3)"), or whose passage holds the question's words
// as its page's text does, is the passage that stands for its page
// (regions.go).
// Hits are corpus.Hit, the one hit type of the application: retrieve fills
// the chunk id, scores and finder, and the caller labels them with their
// text, file and citation.
// Every search reports what it did in Stats:
// latencies, candidates retrieved and used, the mean cosine of the used
// chunks, BM25's share of the fused score, which retriever found each chunk
// and which reranker ran.
package retrieve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"vika/backend/corpus"
	"vika/backend/embed"
	"vika/backend/index"
)

// Mode is a retrieval mode.
type Mode string

const (
	ModeDense  Mode = "dense"
	ModeBM25   Mode = "bm25"
	ModeHybrid Mode = "hybrid"
)

// Modes lists the modes in the order reports show them.
var Modes = []Mode{ModeBM25, ModeDense, ModeHybrid}

// ParseMode returns the Mode named s.
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown retrieval mode %q (want dense, bm25 or hybrid)", s)
}

// Which retriever found a hit (Hit.FoundBy).
const (
	FoundDense = "dense"
	FoundBM25  = "bm25"
	FoundBoth  = "both"
)

// ErrNoEmbedder is returned by a dense search on a Retriever without an
// embedder (the model is not installed).
var ErrNoEmbedder = errors.New("no embedding model: dense retrieval is unavailable")

// Space is one embedding model with the dense index of the chunks routed
// to it. A chunk goes to the first space whose Languages hold its language
// (corpus.Chunk.Lang); a chunk that no space covers goes to the first
// space, whose vectors of it are then of little use (the engine searches
// such sessions with BM25 by default), but explicit dense and hybrid
// searches still rank it.
type Space struct {
	Embedder embed.Embedder
	Dense    *index.Dense
	// Languages routed to this model; empty means every language.
	Languages []string
	// Profile overrides ProfileFor(Embedder.Name()).
	Profile *Profile
}

// space is a Space in use.
type space struct {
	emb   embed.Embedder
	dense *index.Dense
	sums  *index.Dense // the summaries of the passages routed here (summaries.go)
	prof  Profile
	langs map[string]bool // nil: every language
}

func (s *space) covers(lang string) bool { return s.langs == nil || s.langs[lang] }

// Retriever searches a lexical index and the dense indexes of the same
// chunks. It is safe for concurrent use; the indexes may change under it.
type Retriever struct {
	lex     *index.Lexical
	spaces  []*space // routing order; none without an embedder
	prof    Profile  // profile in force without a space
	pages   PageRanking
	book    *pageBook      // page of each chunk, for pages
	whole   *index.Lexical // one entry per page (PageRanking.WholePages)
	okapi   *index.Okapi   // the same entries, scored by the textbook BM25 (PageRanking.Okapi); nil unless Options.OkapiPages
	workers int
	now     func() time.Time
	figs    *Figures // the figure list; nil without an image model
	sumW    float64  // the summary list's weight (SummaryWeight unless Options say)
}

// Options configure New and NewRouted.
type Options struct {
	// Profile overrides the first embedder's measured profile (ProfileFor).
	Profile *Profile
	// Now is the clock of the latency statistics; nil means time.Now.
	Now func() time.Time
	// EmbedWorkers is how many groups of chunks Add and Embed embed at
	// once (EmbedOptions.Workers); 0 means one.
	EmbedWorkers int
	// Pages overrides DefaultPageRanking.
	Pages *PageRanking
	// OkapiPages also keeps the whole pages in an index.Okapi, which a
	// PageRanking with Okapi searches (an experiment of vika eval pages;
	// the app's ranking does not use it, so it does not pay for it).
	OkapiPages bool
	// Figures, if not nil, adds the figure list to hybrid and dense
	// searches (see FigureWeight); nil leaves every search as it is.
	Figures *Figures
	// SummaryWeight overrides SummaryWeight, the summary list's weight in
	// the fusion (0: SummaryWeight); a measurement's knob.
	SummaryWeight float64
}

// New returns a Retriever over lex and dense, embedding every chunk with
// emb. emb and dense may both be nil: only bm25 mode works then, and
// hybrid falls back to it.
func New(lex *index.Lexical, dense *index.Dense, emb embed.Embedder, opts Options) (*Retriever, error) {
	if (emb == nil) != (dense == nil) {
		return nil, errors.New("retrieve: an embedder needs a dense index and a dense index an embedder")
	}
	var spaces []Space
	if emb != nil {
		spaces = []Space{{Embedder: emb, Dense: dense}}
	}
	return NewRouted(lex, spaces, opts)
}

// NewRouted returns a Retriever over lex and the dense index of each space,
// routing chunks to the spaces by language (see Space). No space means
// BM25 only.
func NewRouted(lex *index.Lexical, spaces []Space, opts Options) (*Retriever, error) {
	if lex == nil {
		return nil, errors.New("retrieve: no lexical index")
	}
	whole, err := index.NewLexical()
	if err != nil {
		return nil, err
	}
	r := &Retriever{lex: lex, now: opts.Now, workers: opts.EmbedWorkers, prof: DefaultProfile(""), sumW: cmp.Or(opts.SummaryWeight, SummaryWeight),
		pages: DefaultPageRanking, book: newPageBook(), whole: whole}
	if opts.Pages != nil {
		r.pages = *opts.Pages
	}
	if opts.OkapiPages {
		r.okapi = index.NewOkapi()
	}
	if r.now == nil {
		r.now = time.Now
	}
	if opts.Profile != nil {
		r.prof = *opts.Profile
	}
	if f := opts.Figures; f != nil {
		if f.Model == nil || f.Index == nil {
			whole.Close()
			return nil, errors.New("retrieve: a figure list needs an image model and an index")
		}
		if f.Model.Dim() != f.Index.Dim() {
			whole.Close()
			return nil, fmt.Errorf("retrieve: %w: image model %s gives %d, figure index holds %d", index.ErrDim, f.Model.Name(), f.Model.Dim(), f.Index.Dim())
		}
		r.figs = f
	}
	for i, s := range spaces {
		switch {
		case s.Embedder == nil || s.Dense == nil:
			whole.Close()
			return nil, errors.New("retrieve: an embedder needs a dense index and a dense index an embedder")
		case s.Embedder.Dim() != s.Dense.Dim():
			whole.Close()
			return nil, fmt.Errorf("retrieve: %w: embedder %s gives %d, index holds %d", index.ErrDim, s.Embedder.Name(), s.Embedder.Dim(), s.Dense.Dim())
		}
		sp := &space{emb: s.Embedder, dense: s.Dense, sums: newSummaryIndex(s.Dense.Dim()), prof: ProfileFor(s.Embedder.Name())}
		switch {
		case s.Profile != nil:
			sp.prof = *s.Profile
		case i == 0 && opts.Profile != nil:
			sp.prof = *opts.Profile
		}
		if len(s.Languages) > 0 {
			sp.langs = map[string]bool{}
			for _, l := range s.Languages {
				sp.langs[l] = true
			}
		}
		r.spaces = append(r.spaces, sp)
	}
	return r, nil
}

// Profile returns the settings in force: the first embedder's.
func (r *Retriever) Profile() Profile {
	if len(r.spaces) == 0 {
		return r.prof
	}
	return r.spaces[0].prof
}

// WithProfile returns a Retriever over the same indexes and embedders
// whose first embedder uses p.
func (r *Retriever) WithProfile(p Profile) *Retriever {
	c := *r
	c.prof = p
	if len(r.spaces) > 0 {
		c.spaces = slices.Clone(r.spaces)
		sp := *c.spaces[0]
		sp.prof = p
		c.spaces[0] = &sp
	}
	return &c
}

// Pages returns the page ranking in force.
func (r *Retriever) Pages() PageRanking { return r.pages }

// WithPages returns a Retriever over the same indexes and embedders that
// ranks by p.
func (r *Retriever) WithPages(p PageRanking) *Retriever {
	c := *r
	c.pages = p
	return &c
}

// HasEmbedder reports whether dense retrieval is possible.
func (r *Retriever) HasEmbedder() bool { return len(r.spaces) > 0 }

// Embedders names the embedding models, in routing order.
func (r *Retriever) Embedders() []string {
	out := make([]string, len(r.spaces))
	for i, s := range r.spaces {
		out[i] = s.emb.Name()
	}
	return out
}

// EmbedderFor names the embedding model chunks of lang are routed to
// ("" without an embedder).
func (r *Retriever) EmbedderFor(lang string) string {
	if len(r.spaces) == 0 {
		return ""
	}
	return r.spaces[r.route(lang)].emb.Name()
}

// Vectors counts the vectors held by each embedding model's index.
func (r *Retriever) Vectors() map[string]int {
	out := make(map[string]int, len(r.spaces))
	for _, s := range r.spaces {
		out[s.emb.Name()] += s.dense.Len()
	}
	return out
}

// Covers reports whether some embedding model is routed chunks of the
// language lang (by its Languages, not by fallback).
func (r *Retriever) Covers(lang string) bool {
	for _, s := range r.spaces {
		if s.covers(lang) {
			return true
		}
	}
	return false
}

// DefaultMode is the mode a search takes when none is asked for, given
// the languages of the documents searched (see the function DefaultMode).
func (r *Retriever) DefaultMode(langs ...string) Mode {
	if !r.HasEmbedder() {
		return ModeBM25
	}
	return DefaultMode(r.Covers, langs...)
}

// DefaultMode is hybrid when the loaded embedding models cover every one
// of langs (covers reports whether some model was trained on a language),
// else BM25; a nil covers means no model is loaded. On languages a model
// was not trained on its vectors are noise: measured with USE-lite
// (English only) on the French slides of the evaluation set, hybrid search
// found the answer page in the top 5 for 4 of 8 questions, BM25 for 7 of 8.
func DefaultMode(covers func(lang string) bool, langs ...string) Mode {
	if covers == nil {
		return ModeBM25
	}
	for _, l := range langs {
		if !covers(l) {
			return ModeBM25
		}
	}
	return ModeHybrid
}

// route returns the index of the space that embeds a chunk of lang.
func (r *Retriever) route(lang string) int {
	for i, s := range r.spaces {
		if s.covers(lang) {
			return i
		}
	}
	return 0
}

// groups returns the indexes of chunks by the space they are routed to.
func (r *Retriever) groups(chunks []corpus.Chunk) [][]int {
	g := make([][]int, len(r.spaces))
	for i, c := range chunks {
		s := r.route(c.Lang)
		g[s] = append(g[s], i)
	}
	return g
}

// Embed returns the vectors of chunks, each computed by the model its
// language is routed to as that model's profile says (Passage), or nil
// without an embedder. progress is as EmbedOptions.Progress, over all the
// chunks. Passages are background work: they are embedded at the
// background CPU priority (EmbedOptions.Background).
func (r *Retriever) Embed(ctx context.Context, chunks []corpus.Chunk, progress func(done, total int)) ([][]float32, error) {
	if len(r.spaces) == 0 {
		return nil, nil
	}
	vecs := make([][]float32, len(chunks))
	done := 0
	for s, idx := range r.groups(chunks) {
		if len(idx) == 0 {
			continue
		}
		texts := make([]string, len(idx))
		for j, i := range idx {
			texts[j] = chunks[i].Text
		}
		o := EmbedOptions{Workers: r.workers, Background: true} // passages: background work
		if progress != nil {
			base := done
			o.Progress = func(d, _ int) { progress(base+d, len(chunks)) }
		}
		sp := r.spaces[s]
		out, err := EmbedPassages(ctx, sp.emb, sp.prof.Passage, texts, o)
		if err != nil {
			return nil, err
		}
		for j, i := range idx {
			vecs[i] = out[j]
		}
		done += len(idx)
	}
	return vecs, nil
}

// Add embeds chunks and indexes them in the lexical index and their
// model's dense index (replacing chunks with the same ids). progress, if
// not nil, reports the embedding.
func (r *Retriever) Add(ctx context.Context, chunks []corpus.Chunk, progress func(done, total int)) error {
	vecs, err := r.Embed(ctx, chunks, progress)
	if err != nil {
		return err
	}
	return r.AddEmbedded(ctx, chunks, vecs)
}

// AddEmbedded indexes chunks whose vectors were computed by Embed (vecs
// is ignored without an embedder): AddText then AddVectors, vectors first.
func (r *Retriever) AddEmbedded(ctx context.Context, chunks []corpus.Chunk, vecs [][]float32) error {
	if err := r.AddVectors(chunks, vecs); err != nil {
		return err
	}
	return r.AddText(ctx, chunks)
}

// AddText indexes chunks for BM25 and the page ranking: from then on a
// BM25 search finds them, and a hybrid one through its BM25 list until
// AddVectors gives them their vectors. A display formula's passage is not
// put in the BM25 index (see inLexical); its page still knows it.
func (r *Retriever) AddText(ctx context.Context, chunks []corpus.Chunk) error {
	words, _ := only(inLexical, chunks, nil)
	if err := r.lex.Add(ctx, words); err != nil {
		return err
	}
	pages := r.book.add(chunks)
	if r.okapi != nil {
		if err := r.okapi.Add(ctx, pages); err != nil {
			return err
		}
	}
	return r.whole.Add(ctx, pages)
}

// AddVectors puts chunks' vectors, computed by Embed, in their model's
// dense index (nothing without an embedder). A chunk id already held by
// another model's index moves to the one its language is routed to now.
// A passage without text gets no vector (see inDense).
func (r *Retriever) AddVectors(chunks []corpus.Chunk, vecs [][]float32) error {
	if len(r.spaces) == 0 {
		return nil
	}
	if len(vecs) != len(chunks) {
		return fmt.Errorf("retrieve: %d chunks but %d vectors", len(chunks), len(vecs))
	}
	chunks, vecs = only(inDense, chunks, vecs)
	groups := r.groups(chunks)
	for s, idx := range groups { // check every dimension before changing anything
		for _, i := range idx {
			if d := r.spaces[s].dense.Dim(); len(vecs[i]) != d {
				return fmt.Errorf("retrieve: %w: chunk %s has %d, %s wants %d", index.ErrDim, chunks[i].ID, len(vecs[i]), r.spaces[s].emb.Name(), d)
			}
		}
	}
	for s, idx := range groups {
		cs, vs := make([]corpus.Chunk, len(idx)), make([][]float32, len(idx))
		ids := make([]string, len(idx))
		for j, i := range idx {
			cs[j], vs[j], ids[j] = chunks[i], vecs[i], chunks[i].ID
		}
		for o, other := range r.spaces {
			if o != s && len(ids) > 0 {
				other.dense.Delete(ids)
			}
		}
		if err := r.spaces[s].dense.Add(cs, vs); err != nil {
			return err
		}
	}
	return nil
}

// DeleteDoc removes the chunks of docID from every index.
func (r *Retriever) DeleteDoc(ctx context.Context, docID string) error {
	for _, s := range r.spaces {
		s.dense.DeleteDoc(docID)
		s.sums.DeleteDoc(docID)
	}
	if r.figs != nil {
		r.figs.Index.DeleteDoc(docID)
	}
	r.book.deleteDoc(docID)
	if r.okapi != nil {
		if err := r.okapi.DeleteDoc(ctx, docID); err != nil {
			return err
		}
	}
	if err := r.whole.DeleteDoc(ctx, docID); err != nil {
		return err
	}
	return r.lex.DeleteDoc(ctx, docID)
}

// Close releases the whole-page index the Retriever keeps (the indexes
// given to New stay their owner's to close). Copies made by WithProfile
// and WithPages share it: close one of them, once.
func (r *Retriever) Close() error { return r.whole.Close() }
