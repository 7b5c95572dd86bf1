package retrieve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"vika/backend/corpus"
	"vika/backend/embed"
	"vika/backend/index"
	"vika/backend/message"
	"vika/backend/rerank"
)

// SearchOptions are the parameters of one search.
type SearchOptions struct {
	// Mode is the retrieval mode; "" means hybrid (bm25 without embedder).
	Mode Mode
	// K is the number of hits; <= 0 means 10.
	K int
	// Depth overrides the profiles' candidate depth in hybrid mode.
	Depth int
	// Fusion overrides the fusion method of the embedding models'
	// profiles in hybrid mode (FusionConvex or FusionRRF; the weight,
	// normalisation and k stay the profile's, see Profile.fusion); ""
	// keeps each profile's. Stats.Fusion reports the method that ran.
	Fusion Fusion
	// Rerank, if not nil, rescores the best RerankDepth candidates of the
	// mode and orders them by its scores (see Retriever.rerank); nil keeps
	// the retrieval order and Stats.Reranker is "none".
	Rerank Reranker
	// RerankDepth is how many candidates Rerank rescores; <= 0 means
	// DefaultRerankDepth. The search retrieves max(K, RerankDepth).
	RerankDepth int
	// FigureDepth is how many figures the image list adds (CLIP); 0
	// means FigureDepth, a negative value turns the list off.
	FigureDepth int
	// Passages gives the text of the candidates Rerank rescores; required
	// with Rerank.
	Passages Passages
	// SummaryDepth is how many passages the summary list adds (their
	// summaries nearest the question); 0 means SummaryDepth, or the
	// search's depth when larger, a negative value turns the list off.
	// Without summaries there is no list.
	SummaryDepth int
	// Scope limits the search to some documents and pages: every list
	// (BM25, dense, whole pages, figures) is searched within it, before
	// any ranking. The zero value searches everything.
	Scope corpus.Scope
}

// Search returns the k chunks that best match q in mode o.Mode, reranked
// against q when o.Rerank is set. The hits' scores are those of q's search
// (see SearchQuery for a question searched with expansions). What q says
// of its answer's form is not searched (searchedText). When the embedding
// model fails on q, a hybrid search goes on with BM25 alone: Stats.Mode is
// bm25 and Stats.DenseError says why.
func (r *Retriever) Search(ctx context.Context, q string, o SearchOptions) (Result, error) {
	q = searchedText(q)
	return r.search(ctx, []string{q}, q, o)
}

// search ranks the candidates of each text in texts (page ranking
// included), fuses the lists by Reciprocal Rank Fusion when there are
// several (fuseRanked), reranks the result against question and keeps the
// o.K best. Stats are those of the first text's search, with Candidates
// summed over every search. A hybrid search whose query the embedding
// model fails to embed runs in bm25 mode (rankedOrKeywords).
func (r *Retriever) search(ctx context.Context, texts []string, question string, o SearchOptions) (Result, error) {
	start := r.now()
	k := o.K
	if k <= 0 {
		k = 10
	}
	mode := o.Mode
	if mode == "" {
		mode = ModeHybrid
	}
	if mode == ModeHybrid && !r.HasEmbedder() {
		mode = ModeBM25
	}
	if _, err := ParseFusion(string(o.Fusion)); err != nil {
		return Result{}, fmt.Errorf("retrieve: %w", err)
	}
	want := k
	if o.Rerank != nil {
		if o.Passages == nil {
			return Result{}, fmt.Errorf("retrieve: reranking needs the passages' text (SearchOptions.Passages)")
		}
		want = max(k, rerankDepth(o.RerankDepth))
	}
	lists, st, embedded, mode, err := r.rankedOrKeywords(ctx, texts, mode, k, want, o)
	if err != nil {
		return Result{}, err
	}
	cands := lists[0]
	if len(lists) > 1 {
		cands = fuseRanked(lists, want)
	}
	figs, err := r.figureList(ctx, question, mode, o.Scope, figureDepth(o.FigureDepth), &st)
	switch {
	case err != nil && ctx.Err() != nil:
		return Result{}, ctx.Err()
	case err != nil:
		m := message.New(message.SearchFiguresFailed, "detail", err.Error()) // the text's ranking stands
		st.FigureError = &m
	}
	sums, err := r.summaryList(ctx, question, mode, o.Scope, summaryDepth(o.SummaryDepth, want), &st)
	if err != nil {
		return Result{}, err
	}
	cands = fuseExtra(cands, summaryExtra(sums, r.sumW), figureExtra(figs))
	st.Reranker = rerank.None
	if o.Rerank != nil {
		var err error
		if cands, err = r.rerank(ctx, question, cands, o, &st); err != nil {
			return Result{}, err
		}
		if r.pages.Diverse { // keep the reranked pages diverse
			cands = rankPages(cands, PageRanking{Window: r.pages.Window, Diverse: true}, r.book, nil, nil)
			cands = r.book.regionsFirst(cands, question, r.pages.Window)
		}
	}
	if !r.pages.off() && !aboutReferences(question) {
		cands = r.book.referencesLast(cands)
	}
	cands = r.book.quotedFirst(cands, question)
	cands = r.book.pageNamedFirst(cands, question, o.Scope)
	cands = r.book.namedFirst(cands, question, o.Scope)
	if o.Scope.Mine {
		cands = r.book.onlyMine(cands)
	} else {
		cands = r.book.mineAtMost(cands, mineShare(k))
	}
	res := Result{found: cands[:min(k, len(cands))]}
	res.Hits, res.Stats = hits(res.found, embedded, st)
	res.Stats.Mode = mode
	res.Stats.Used = len(res.Hits)
	res.Stats.Latency = r.now().Sub(start)
	return res, nil
}

// rankedTexts returns the ranked candidates of each text (ranked) and the
// Stats of the first one's search, with Candidates summed over every
// search.
func (r *Retriever) rankedTexts(ctx context.Context, texts []string, mode Mode, k, want int, o SearchOptions) ([][]*candidate, Stats, bool, error) {
	var (
		st       Stats
		embedded bool
	)
	lists := make([][]*candidate, 0, len(texts))
	for i, text := range texts {
		c, s, emb, err := r.ranked(ctx, text, mode, k, want, o.Depth, o.Fusion, o.Scope)
		if err != nil {
			return nil, s, false, err // the failed search's stats (its embedding time)
		}
		if i == 0 {
			st, embedded = s, emb
		} else {
			st.Candidates += s.Candidates
		}
		lists = append(lists, c)
	}
	return lists, st, embedded, nil
}

// rankedOrKeywords is rankedTexts, in bm25 mode when the embedding model
// fails on the query of a hybrid search: the search goes on with keywords
// alone, Stats.DenseError saying why, and the mode returned is the one
// that ran. A cancelled ctx is an error, not a reason to fall back.
func (r *Retriever) rankedOrKeywords(ctx context.Context, texts []string, mode Mode, k, want int, o SearchOptions) ([][]*candidate, Stats, bool, Mode, error) {
	lists, st, embedded, err := r.rankedTexts(ctx, texts, mode, k, want, o)
	var failed embedError
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, st, false, mode, ctx.Err()
	case !errors.As(err, &failed):
		return lists, st, embedded, mode, err
	}
	m := message.New(message.SearchDenseFailed, "detail", failed.err.Error())
	tried := st.Embed // the failed embedding's time
	lists, st, embedded, err = r.rankedTexts(ctx, texts, ModeBM25, k, want, o)
	st.DenseError, st.Embed = &m, tried
	return lists, st, embedded, ModeBM25, err
}

// embedError is a hybrid search's failure to embed its query: search then
// goes on with BM25 alone (Stats.DenseError), unless the context ended.
type embedError struct{ err error }

func (e embedError) Error() string { return "retrieve: embedding the query: " + e.err.Error() }
func (e embedError) Unwrap() error { return e.err }

// ranked returns the candidates of one text in mode, ranked by page (see
// PageRanking): want of them at least, more in bm25 mode when the page
// window asks for them. depth and method are SearchOptions.Depth and
// Fusion.
func (r *Retriever) ranked(ctx context.Context, q string, mode Mode, k, want, depth int, method Fusion, scope corpus.Scope) ([]*candidate, Stats, bool, error) {
	fetch := want // candidates asked of bm25 mode (dense mode is a diagnostic: as asked)
	if !r.pages.off() {
		fetch = max(want, r.pages.Window)
	}
	// The whole-page search runs while the mode searches (and embeds).
	type wholeOut struct {
		list []index.Scored
		took time.Duration
		err  error
	}
	var wholec chan wholeOut
	if r.pages.WholePages && mode != ModeDense {
		wholec = make(chan wholeOut, 1)
		go func() {
			t := r.now()
			search := r.whole.SearchScoped
			if r.pages.Okapi {
				if r.okapi == nil {
					wholec <- wholeOut{err: errors.New("retrieve: PageRanking.Okapi needs Options.OkapiPages")}
					return
				}
				search = r.okapi.SearchScoped
			}
			list, err := search(ctx, q, max(r.pages.Window, k), scope)
			wholec <- wholeOut{list, r.now().Sub(t), err}
		}()
	}
	var (
		cands    []*candidate
		st       Stats
		embedded bool
		err      error
	)
	switch mode {
	case ModeBM25:
		cands, st, err = r.searchBM25(ctx, q, fetch, scope)
	case ModeDense:
		cands, st, embedded, err = r.searchDense(ctx, q, want, scope)
	case ModeHybrid:
		cands, st, embedded, err = r.searchHybrid(ctx, q, want, depth, method, scope)
	default:
		return nil, st, false, fmt.Errorf("retrieve: unknown mode %q", mode)
	}
	var whole map[pageKey]int
	var wholeScore map[pageKey]float64
	if wholec != nil {
		wo := <-wholec
		if err == nil {
			err = wo.err
		}
		st.Lexical = max(st.Lexical, wo.took)
		whole = r.book.pageRanks(wo.list)
		if r.pages.Convex > 0 {
			wholeScore = r.book.pageScores(wo.list)
		}
	}
	if err != nil {
		return nil, st, false, err
	}
	cands = rankPages(cands, r.pages, r.book, whole, wholeScore)
	if r.pages.Diverse {
		cands = r.book.regionsFirst(cands, q, r.pages.Window)
	}
	return cands, st, embedded, nil
}

func (r *Retriever) searchBM25(ctx context.Context, q string, k int, scope corpus.Scope) ([]*candidate, Stats, error) {
	var st Stats
	t := r.now()
	list, err := r.lex.SearchScoped(ctx, q, k, scope)
	if err != nil {
		return nil, st, err
	}
	st.Lexical = r.now().Sub(t)
	st.LexicalCandidates, st.Candidates = len(list), len(list)
	st.TopLexical = topScore(list)
	cands := make([]*candidate, len(list))
	for i, s := range list {
		cands[i] = &candidate{id: s.ChunkID, lexical: s.Score, lexicalRank: i + 1, score: s.Score, lexicalPart: s.Score}
	}
	return cands, st, nil
}

// active returns the spaces a query is embedded by: those holding vectors,
// or the first one when none does.
func (r *Retriever) active() []*space {
	var out []*space
	for _, s := range r.spaces {
		if s.dense.Len() > 0 {
			out = append(out, s)
		}
	}
	if len(out) == 0 && len(r.spaces) > 0 {
		out = r.spaces[:1]
	}
	return out
}

// embedQuery returns the unit query vector of s's model (with its query
// prefix, embed.ForQueries), or nil for a query without words.
func (s *space) embedQuery(ctx context.Context, q string) ([]float32, error) {
	vecs, err := EmbedPassages(ctx, embed.ForQueries(s.emb), s.prof.Passage, []string{q}, EmbedOptions{})
	if err != nil {
		return nil, err
	}
	if isZero(vecs[0]) {
		return nil, nil
	}
	return vecs[0], nil
}

func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// searchDense returns each model's k nearest chunks. With several models,
// whose cosines are not comparable, the lists are interleaved by rank
// (ties by cosine): dense mode is a diagnostic mode, hybrid the one that
// merges models by score (see mergeSpaces).
func (r *Retriever) searchDense(ctx context.Context, q string, k int, scope corpus.Scope) ([]*candidate, Stats, bool, error) {
	var st Stats
	if !r.HasEmbedder() {
		return nil, st, false, ErrNoEmbedder
	}
	var cands []*candidate
	embedded := false
	for _, s := range r.active() {
		t := r.now()
		qv, err := s.embedQuery(ctx, q)
		if err != nil {
			return nil, st, false, err
		}
		st.Embed += r.now().Sub(t)
		st.Embedders = append(st.Embedders, s.emb.Name())
		if qv == nil {
			continue
		}
		embedded = true
		t = r.now()
		list, err := s.dense.SearchScoped(ctx, qv, k, scope)
		if err != nil {
			return nil, st, false, err
		}
		st.Dense += r.now().Sub(t)
		st.DenseCandidates += len(list)
		for i, h := range list {
			cands = append(cands, &candidate{id: h.ChunkID, dense: h.Score, cosine: h.Score, hasDense: true,
				denseRank: i + 1, score: h.Score, densePart: h.Score, model: s.emb.Name()})
		}
	}
	slices.SortStableFunc(cands, func(a, b *candidate) int {
		if a.denseRank != b.denseRank {
			return a.denseRank - b.denseRank
		}
		return compareFused(a, b)
	})
	st.Candidates = len(cands)
	return cands[:min(k, len(cands))], st, embedded, nil
}

// depthOf is the candidate depth of s in hybrid mode: the option's, else
// the profile's, else DefaultDepth, and at least k.
func depthOf(s *space, option, k int) int {
	d := option
	if d <= 0 {
		d = s.prof.Depth
	}
	if d <= 0 {
		d = DefaultDepth
	}
	return max(d, k)
}

// searchHybrid fuses BM25 with each active model's dense candidates,
// using that model's profile (its fusion method replaced by method unless
// that is ""), and merges the fused lists (mergeSpaces). BM25 runs while
// the query is embedded.
func (r *Retriever) searchHybrid(ctx context.Context, q string, k, depthOption int, method Fusion, scope corpus.Scope) ([]*candidate, Stats, bool, error) {
	var st Stats
	spaces := r.active()
	lexDepth := 0
	for _, s := range spaces {
		lexDepth = max(lexDepth, depthOf(s, depthOption, k))
	}
	type lexOut struct {
		list []index.Scored
		took time.Duration
		err  error
	}
	lexc := make(chan lexOut, 1)
	go func() {
		t := r.now()
		list, err := r.lex.SearchScoped(ctx, q, lexDepth, scope)
		lexc <- lexOut{list, r.now().Sub(t), err}
	}()

	qvs := make([][]float32, len(spaces))
	denseLists := make([][]index.Scored, len(spaces))
	var err error
	for i, s := range spaces {
		t := r.now()
		qvs[i], err = s.embedQuery(ctx, q)
		st.Embed += r.now().Sub(t)
		if err != nil {
			err = embedError{err}
			break
		}
		st.Embedders = append(st.Embedders, s.emb.Name())
		if qvs[i] != nil {
			t = r.now()
			denseLists[i], err = s.dense.SearchScoped(ctx, qvs[i], depthOf(s, depthOption, k), scope)
			st.Dense += r.now().Sub(t)
			if err != nil {
				break
			}
			st.DenseCandidates += len(denseLists[i])
		}
	}
	lo := <-lexc
	if err != nil {
		return nil, st, false, err
	}
	if lo.err != nil {
		return nil, st, false, lo.err
	}
	st.Lexical = lo.took
	st.LexicalCandidates = len(lo.list)
	st.TopLexical = topScore(lo.list)

	t := r.now()
	f := spaces[0].prof.fusion(method)
	st.Fusion, st.DenseWeight = f.method, f.denseWeight
	lists := make([][]*candidate, len(spaces))
	embedded := false
	for i, s := range spaces {
		if lists[i], err = s.fuseLists(ctx, qvs[i], denseLists[i], lo.list, depthOf(s, depthOption, k), method); err != nil {
			return nil, st, false, err
		}
		embedded = embedded || qvs[i] != nil
	}
	cands := lists[0]
	if len(spaces) > 1 {
		cands = mergeSpaces(spaces, lists, method)
	}
	st.Candidates = len(cands)
	st.Fuse = r.now().Sub(t)
	return cands, st, embedded, nil
}
