package retrieve

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"vika/backend/message"
	"vika/backend/rerank"
)

// Reranker rescores passages against a query, one score per passage in
// order, higher meaning more relevant (rerank.CrossEncoder). Scores are raw
// model outputs (logits for a cross-encoder), comparable within one model
// only.
type Reranker interface {
	Rerank(ctx context.Context, query string, passages []string) ([]float64, error)
}

// Passages gives the text of chunks by id, for the reranker; an id it
// omits (a chunk removed meanwhile) is not rescored.
type Passages interface {
	Texts(ctx context.Context, ids []string) (map[string]string, error)
}

// PassagesFunc adapts a function to Passages.
type PassagesFunc func(ctx context.Context, ids []string) (map[string]string, error)

// Texts calls f.
func (f PassagesFunc) Texts(ctx context.Context, ids []string) (map[string]string, error) {
	return f(ctx, ids)
}

// DefaultRerankDepth is how many fused candidates a reranker rescores by
// default. A cross-encoder reads every (question, passage) pair through
// the whole model, so its cost is linear in the depth and large: a model
// of the shape of ms-marco-MiniLM-L-6-v2 (6 layers, 384 wide, random
// weights: the cost depends on the shape only) took 12 to 14 times as long
// to score 30 SciFact pairs (about 280 words each) as USE-lite took to
// embed the same 30 abstracts, side by side on one thread; with USE-lite's
// 100-118 abstracts/s on an idle core, that is about 0.12 s a pair, 3.5 s
// for 30. Depth 20 keeps a search under about 2.5 s on one core (less with
// $VIKA_EMBED_THREADS) while still covering what retrieval finds: on
// SciFact test, hybrid retrieval's Recall@20 is 0.850 against
// Recall@100 0.910 (`vika eval beir` reports both), and the prompt
// cites only the first few passages. With the box's cross-encoder
// (ms-marco-MiniLM-L-12-v2), depth 20 scored as well as or better than 10
// and 40 on the French and MMLongBench development questions (`vika eval
// pages --app --rerank-depth N`, docs/measurements.md "Rerank depth").
const DefaultRerankDepth = 20

// MaxRerankDepth bounds SearchOptions.RerankDepth (and the settings').
const MaxRerankDepth = 100

// RerankFusionK is the k of the fusion of the cross-encoder's order with
// retrieval's (orderByRerank).
const RerankFusionK = 60

// orderByRerank orders the rescored candidates, given in retrieval order,
// by Reciprocal Rank Fusion of their rank by the cross-encoder and their
// rank by retrieval (k = RerankFusionK, equal weights; ties go to the
// cross-encoder's score). The cross-encoder was trained on web questions
// over short English passages (MS MARCO): on the pages of papers and on
// French slides its order alone lost what retrieval knew (the page
// ranking, the whole-page list, the meaning of a French question). Fused,
// with the box's models, the answer page came in the first 5 for 42
// questions of MMLongBench-Doc's development half against 40 by its
// order alone (43 unreranked), and for 27 of the 30 French student
// questions against 24 (23 unreranked); first as often either way
// (docs/measurements.md, "Models inside Vika").
func orderByRerank(scored []*candidate) {
	byScore := slices.Clone(scored)
	slices.SortStableFunc(byScore, func(a, b *candidate) int { return cmp.Compare(*b.rerank, *a.rerank) })
	fused := make(map[*candidate]float64, len(scored))
	for i, c := range scored {
		fused[c] += 1 / (RerankFusionK + float64(i+1))
	}
	for i, c := range byScore {
		fused[c] += 1 / (RerankFusionK + float64(i+1))
	}
	slices.SortStableFunc(scored, func(a, b *candidate) int {
		if x := cmp.Compare(fused[b], fused[a]); x != 0 {
			return x
		}
		return cmp.Compare(*b.rerank, *a.rerank)
	})
}

func rerankDepth(n int) int {
	if n <= 0 {
		return DefaultRerankDepth
	}
	return n
}

// rerank rescores the first RerankDepth candidates with o.Rerank and
// orders them by its order fused with retrieval's (orderByRerank); the rest
// follow in retrieval order, without a reranker score. A candidate whose
// text o.Passages does not return (removed meanwhile) is not rescored and
// goes after the rescored ones.
func (r *Retriever) rerank(ctx context.Context, q string, cands []*candidate, o SearchOptions, st *Stats) ([]*candidate, error) {
	st.Reranker = rerank.Label(o.Rerank)
	n := min(rerankDepth(o.RerankDepth), len(cands))
	if n == 0 {
		return cands, nil
	}
	ids := make([]string, n)
	for i, c := range cands[:n] {
		ids[i] = c.id
	}
	texts, err := o.Passages.Texts(ctx, ids)
	if err != nil {
		return nil, err
	}
	var scored, missing []*candidate
	var passages []string
	for _, c := range cands[:n] {
		if t, ok := texts[c.id]; ok {
			scored = append(scored, c)
			passages = append(passages, t)
		} else {
			missing = append(missing, c)
		}
	}
	t := r.now()
	scores, err := o.Rerank.Rerank(ctx, q, passages)
	if err == nil && len(scores) != len(passages) {
		err = fmt.Errorf("it returned %d scores for %d passages", len(scores), len(passages))
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// A failing cross-encoder must not cost the search: the retrieval
		// order stands, no score is invented, and the stats say why.
		m := message.New(message.SearchRerankFailed, "reranker", st.Reranker, "detail", err.Error())
		st.RerankError = &m
		st.Reranker = rerank.None
		return cands, nil
	}
	st.Rerank = r.now().Sub(t)
	for i, c := range scored {
		c.rerank = &scores[i]
	}
	st.Reranked = len(scored)
	orderByRerank(scored)
	st.RerankScores = make([]float64, len(scored))
	for i, c := range scored {
		st.RerankScores[i] = *c.rerank
	}
	slices.SortFunc(st.RerankScores, func(a, b float64) int { return cmp.Compare(b, a) })
	out := make([]*candidate, 0, len(cands))
	out = append(append(append(out, scored...), missing...), cands[n:]...)
	return out, nil
}
