// Package retrieve finds the chunks that best answer a question. A
// Retriever combines the lexical index (BM25, per-language analyzers), the
// exact dense index and an embedder, and searches in one of three modes:
// dense, bm25, or hybrid, which fuses the candidates of both (convex
// combination of normalised scores or Reciprocal Rank Fusion, weighted per
// embedding model by measurement: see Profile). Every search reports what
// it did in Stats: latencies, candidates retrieved and used, the mean
// cosine of the used chunks, BM25's share of the fused score and which
// retriever found each chunk.
package retrieve

import (
	"context"
	"errors"
	"fmt"
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

// Retriever searches a lexical and a dense index of the same chunks. It is
// safe for concurrent use; the indexes may change under it.
type Retriever struct {
	lex     *index.Lexical
	dense   *index.Dense
	emb     embed.Embedder
	prof    Profile
	workers int
	now     func() time.Time
}

// Options configure New.
type Options struct {
	// Profile overrides the embedder's measured profile (ProfileFor).
	Profile *Profile
	// Now is the clock of the latency statistics; nil means time.Now.
	Now func() time.Time
	// EmbedWorkers is how many groups of chunks Add and Embed embed at
	// once (EmbedOptions.Workers); 0 means one.
	EmbedWorkers int
}

// New returns a Retriever over lex and dense, embedding with emb. emb and
// dense may both be nil: only bm25 mode works then, and hybrid falls back
// to it.
func New(lex *index.Lexical, dense *index.Dense, emb embed.Embedder, opts Options) (*Retriever, error) {
	switch {
	case lex == nil:
		return nil, errors.New("retrieve: no lexical index")
	case (emb == nil) != (dense == nil):
		return nil, errors.New("retrieve: an embedder needs a dense index and a dense index an embedder")
	case emb != nil && emb.Dim() != dense.Dim():
		return nil, fmt.Errorf("retrieve: %w: embedder %s gives %d, index holds %d", index.ErrDim, emb.Name(), emb.Dim(), dense.Dim())
	}
	r := &Retriever{lex: lex, dense: dense, emb: emb, now: opts.Now, workers: opts.EmbedWorkers}
	if r.now == nil {
		r.now = time.Now
	}
	switch {
	case opts.Profile != nil:
		r.prof = *opts.Profile
	case emb != nil:
		r.prof = ProfileFor(emb.Name())
	default:
		r.prof = DefaultProfile("")
	}
	return r, nil
}

// Profile returns the settings in force.
func (r *Retriever) Profile() Profile { return r.prof }

// WithProfile returns a Retriever over the same indexes and embedder that
// uses p.
func (r *Retriever) WithProfile(p Profile) *Retriever {
	c := *r
	c.prof = p
	return &c
}

// Embed returns the vectors of chunks as the profile's Passage says, or
// nil without an embedder. progress is as EmbedOptions.Progress.
func (r *Retriever) Embed(ctx context.Context, chunks []corpus.Chunk, progress func(done, total int)) ([][]float32, error) {
	if r.emb == nil {
		return nil, nil
	}
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = c.Text
	}
	return EmbedPassages(ctx, r.emb, r.prof.Passage, texts, EmbedOptions{Workers: r.workers, Progress: progress})
}

// Add embeds chunks and indexes them in both indexes (replacing chunks
// with the same ids). progress, if not nil, reports the embedding.
func (r *Retriever) Add(ctx context.Context, chunks []corpus.Chunk, progress func(done, total int)) error {
	vecs, err := r.Embed(ctx, chunks, progress)
	if err != nil {
		return err
	}
	return r.AddEmbedded(ctx, chunks, vecs)
}

// AddEmbedded indexes chunks whose vectors were computed by Embed (vecs
// is ignored without an embedder).
func (r *Retriever) AddEmbedded(ctx context.Context, chunks []corpus.Chunk, vecs [][]float32) error {
	if r.dense != nil {
		if err := r.dense.Add(chunks, vecs); err != nil {
			return err
		}
	}
	return r.lex.Add(ctx, chunks)
}

// DeleteDoc removes the chunks of docID from both indexes.
func (r *Retriever) DeleteDoc(ctx context.Context, docID string) error {
	if r.dense != nil {
		r.dense.DeleteDoc(docID)
	}
	return r.lex.DeleteDoc(ctx, docID)
}

// SearchOptions are the parameters of one search.
type SearchOptions struct {
	// Mode is the retrieval mode; "" means hybrid (bm25 without embedder).
	Mode Mode
	// K is the number of hits; <= 0 means 10.
	K int
	// Depth overrides the profile's candidate depth in hybrid mode.
	Depth int
}

// Search returns the k chunks that best match q in mode o.Mode.
func (r *Retriever) Search(ctx context.Context, q string, o SearchOptions) (Result, error) {
	start := r.now()
	k := o.K
	if k <= 0 {
		k = 10
	}
	mode := o.Mode
	if mode == "" || (mode == ModeHybrid && r.emb == nil) {
		mode = ModeHybrid
		if r.emb == nil {
			mode = ModeBM25
		}
	}
	var res Result
	var err error
	switch mode {
	case ModeBM25:
		res, err = r.searchBM25(ctx, q, k)
	case ModeDense:
		res, err = r.searchDense(ctx, q, k)
	case ModeHybrid:
		depth := o.Depth
		if depth <= 0 {
			depth = r.prof.Depth
		}
		if depth <= 0 {
			depth = DefaultDepth
		}
		res, err = r.searchHybrid(ctx, q, k, max(depth, k))
	default:
		return Result{}, fmt.Errorf("retrieve: unknown mode %q", mode)
	}
	if err != nil {
		return Result{}, err
	}
	res.Stats.Mode = mode
	res.Stats.Used = len(res.Hits)
	res.Stats.Latency = r.now().Sub(start)
	if res.Hits == nil {
		res.Hits = []Hit{}
	}
	return res, nil
}

func (r *Retriever) searchBM25(ctx context.Context, q string, k int) (Result, error) {
	var res Result
	t := r.now()
	list, err := r.lex.Search(ctx, q, k)
	if err != nil {
		return res, err
	}
	res.Stats.Lexical = r.now().Sub(t)
	res.Stats.LexicalCandidates, res.Stats.Candidates = len(list), len(list)
	for i, s := range list {
		res.Hits = append(res.Hits, Hit{ChunkID: s.ChunkID, Score: s.Score, FoundBy: FoundBM25, LexicalScore: s.Score, LexicalRank: i + 1})
	}
	res.Stats.FoundBy.BM25 = len(list)
	if len(list) > 0 {
		res.Stats.BM25Share = 100
	}
	return res, nil
}

// embedQuery returns the unit query vector, or nil for a query without
// words.
func (r *Retriever) embedQuery(ctx context.Context, q string) ([]float32, error) {
	if r.emb == nil {
		return nil, ErrNoEmbedder
	}
	vecs, err := EmbedPassages(ctx, r.emb, r.prof.Passage, []string{q}, EmbedOptions{})
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

func (r *Retriever) searchDense(ctx context.Context, q string, k int) (Result, error) {
	var res Result
	t := r.now()
	qv, err := r.embedQuery(ctx, q)
	if err != nil {
		return res, err
	}
	res.Stats.Embed = r.now().Sub(t)
	if qv == nil {
		return res, nil
	}
	t = r.now()
	list, err := r.dense.Search(ctx, qv, k)
	if err != nil {
		return res, err
	}
	res.Stats.Dense = r.now().Sub(t)
	res.Stats.DenseCandidates, res.Stats.Candidates = len(list), len(list)
	var sum float64
	for i, s := range list {
		res.Hits = append(res.Hits, Hit{ChunkID: s.ChunkID, Score: s.Score, FoundBy: FoundDense, DenseScore: s.Score, DenseRank: i + 1})
		sum += s.Score
	}
	res.Stats.FoundBy.Dense = len(list)
	res.Stats.MeanCosine = mean(sum, len(list))
	return res, nil
}

func (r *Retriever) searchHybrid(ctx context.Context, q string, k, depth int) (Result, error) {
	var res Result
	type lexOut struct {
		list []index.Scored
		took time.Duration
		err  error
	}
	lexc := make(chan lexOut, 1)
	go func() {
		t := r.now()
		list, err := r.lex.Search(ctx, q, depth)
		lexc <- lexOut{list, r.now().Sub(t), err}
	}()

	t := r.now()
	qv, err := r.embedQuery(ctx, q)
	res.Stats.Embed = r.now().Sub(t)
	var denseList []index.Scored
	if err == nil && qv != nil {
		t = r.now()
		denseList, err = r.dense.Search(ctx, qv, depth)
		res.Stats.Dense = r.now().Sub(t)
	}
	lo := <-lexc
	if err != nil {
		return res, err
	}
	if lo.err != nil {
		return res, lo.err
	}
	res.Stats.Lexical = lo.took
	res.Stats.DenseCandidates, res.Stats.LexicalCandidates = len(denseList), len(lo.list)

	t = r.now()
	f := r.prof.fusion()
	res.Stats.Fusion, res.Stats.DenseWeight = f.method, f.denseWeight
	cands, err := r.fuseLists(ctx, qv, denseList, lo.list, depth)
	if err != nil {
		return res, err
	}
	res.Stats.Candidates = len(cands)
	res.Hits, res.Stats = hits(cands[:min(k, len(cands))], qv != nil, res.Stats)
	res.Stats.Fuse = r.now().Sub(t)
	return res, nil
}

// fuseLists fuses the candidates of both retrievers (with feedback if the
// profile asks for it) and returns them best first. qv is nil if the query
// has no vector.
func (r *Retriever) fuseLists(ctx context.Context, qv []float32, denseList, lexList []index.Scored, depth int) ([]*candidate, error) {
	f := r.prof.fusion()
	cands, err := r.candidates(qv, nil, denseList, lexList)
	if err != nil {
		return nil, err
	}
	fuse(cands, f)
	if p := r.prof.PRF; p.Docs > 0 && qv != nil && len(cands) > 0 {
		return r.feedback(ctx, qv, cands, lexList, depth, f)
	}
	return cands, nil
}

// candidates merges the two lists. Every candidate gets its exact cosine
// with qv, the question's vector (for the statistics), and, as its dense
// score, with fq, the vector fusion uses (nil: qv itself).
func (r *Retriever) candidates(qv, fq []float32, denseList, lexList []index.Scored) ([]*candidate, error) {
	byID := make(map[string]*candidate, len(denseList)+len(lexList))
	var cands []*candidate
	get := func(id string) *candidate {
		c := byID[id]
		if c == nil {
			c = &candidate{id: id}
			byID[id] = c
			cands = append(cands, c)
		}
		return c
	}
	for i, s := range denseList {
		get(s.ChunkID).denseRank = i + 1
	}
	for i, s := range lexList {
		c := get(s.ChunkID)
		c.lexicalRank, c.lexical = i+1, s.Score
	}
	if qv == nil || len(cands) == 0 {
		return cands, nil
	}
	ids := make([]string, len(cands))
	for i, c := range cands {
		ids[i] = c.id
	}
	cos, found, err := r.dense.Similarity(qv, ids)
	if err != nil {
		return nil, err
	}
	sims := cos
	if fq != nil {
		if sims, _, err = r.dense.Similarity(fq, ids); err != nil {
			return nil, err
		}
	}
	for i, c := range cands {
		c.dense, c.hasDense, c.cosine = sims[i], found[i], cos[i]
	}
	return cands, nil
}

// feedback runs dense pseudo-relevance feedback (see PRF) on the fused
// candidates and fuses again.
func (r *Retriever) feedback(ctx context.Context, qv []float32, cands []*candidate, lexList []index.Scored, depth int, f fusion) ([]*candidate, error) {
	p := r.prof.PRF
	centroid := make([]float64, len(qv))
	n := 0
	for _, c := range cands[:min(p.Docs, len(cands))] {
		if v, ok := r.dense.Vector(c.id); ok {
			for j, x := range v {
				centroid[j] += float64(x)
			}
			n++
		}
	}
	if n == 0 {
		return cands, nil
	}
	q2 := make([]float64, len(qv))
	for j := range qv {
		q2[j] = float64(qv[j]) + p.Weight*centroid[j]/float64(n)
	}
	fq := toUnit(q2, len(qv))
	denseList, err := r.dense.Search(ctx, fq, depth)
	if err != nil {
		return nil, err
	}
	cands, err = r.candidates(qv, fq, denseList, lexList)
	if err != nil {
		return nil, err
	}
	fuse(cands, f)
	return cands, nil
}
