package retrieve

import "context"

// Query is a question as retrieval takes it: the question itself (the
// standalone one, after a follow-up's rewrite), optionally with a passage
// a model imagined as its answer (HyDE), searched instead of it, and with
// rephrasings searched too.
type Query struct {
	Question    string
	HyDE        string
	Rephrasings []string
}

// texts returns what is searched: the HyDE passage or the question, then
// the rephrasings.
func (q Query) texts() []string {
	first := q.Question
	if q.HyDE != "" {
		first = q.HyDE
	}
	return append([]string{first}, q.Rephrasings...)
}

// Expanded reports whether something else than the question is searched.
func (q Query) Expanded() bool {
	return (q.HyDE != "" && q.HyDE != q.Question) || len(q.Rephrasings) > 0
}

// SearchQuery returns the o.K passages that best answer q: the searches of
// its texts fused by Reciprocal Rank Fusion, reranked against the question
// when o.Rerank is set, and scored for the question, whatever was
// searched. A hit's LexicalScore is its BM25 score for
// the question, and Stats.TopLexical the best BM25 score of the question's
// candidates (what abstaining compares with its threshold): when the
// question itself was searched in bm25 or hybrid mode, that search
// measured them; otherwise (an expanded query, or dense mode, where BM25
// did not run) one BM25 search of the question to DefaultDepth, the probe,
// gives them, and a hit it did not retrieve has none (nil). Likewise a
// hit's DenseScore, and Stats.MeanCosine, are the cosines of the
// question's own vector with the passages, not of the text that found
// them: an expanded query's search measured those of its texts, so the
// question is embedded and its cosines replace them (questionCosines).
// What the question says of its answer's form is not searched
// (searchedText).
func (r *Retriever) SearchQuery(ctx context.Context, q Query, o SearchOptions) (Result, error) {
	start := r.now()
	expanded := q.Expanded()
	q.Question = searchedText(q.Question)
	rephrased := make([]string, len(q.Rephrasings)) // the caller's slice stays as it is
	for i, t := range q.Rephrasings {
		rephrased[i] = searchedText(t)
	}
	q.Rephrasings = rephrased
	texts := []string{q.Question}
	if expanded {
		texts = q.texts()
	}
	res, err := r.search(ctx, texts, q.Question, o)
	if err != nil {
		return res, err
	}
	if !expanded && res.Stats.Mode != ModeDense {
		return res, nil
	}
	t := r.now()
	probe, err := r.lex.Search(ctx, q.Question, DefaultDepth)
	if err != nil {
		return Result{}, err
	}
	res.Stats.Lexical += r.now().Sub(t)
	rank := make(map[string]int, len(probe))
	for i, s := range probe {
		rank[s.ChunkID] = i + 1
	}
	res.Stats.TopLexical = topScore(probe)
	for _, c := range res.found {
		c.lexical, c.lexicalRank = 0, 0
		if n, ok := rank[c.id]; ok {
			c.lexical, c.lexicalRank = probe[n-1].Score, n
		}
	}
	if expanded && res.Stats.Mode != ModeBM25 {
		if err := r.questionCosines(ctx, q.Question, &res); err != nil {
			return Result{}, err
		}
	}
	for i := range res.Hits {
		setScores(&res.Hits[i], res.found[i])
	}
	res.Stats.Latency = r.now().Sub(start)
	return res, nil
}

// questionCosines gives res's hits the cosine of the question's own
// vector, whatever text found them: each active model embeds the question
// and scores the hits whose vectors its index holds. Stats.MeanCosine
// becomes their mean. A question no model could embed (no words, or the
// model failed: the hits stand, unscored) leaves the hits without a
// cosine and the mean nil; a cancelled ctx is an error.
func (r *Retriever) questionCosines(ctx context.Context, question string, res *Result) error {
	ids := make([]string, len(res.found))
	for i, c := range res.found {
		ids[i] = c.id
		c.cosine, c.hasDense, c.model = 0, false, ""
	}
	embedded := false
	for _, s := range r.active() {
		t := r.now()
		qv, err := s.embedQuery(ctx, question)
		res.Stats.Embed += r.now().Sub(t)
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil || qv == nil {
			continue
		}
		embedded = true
		cos, found, err := s.dense.Similarity(qv, ids)
		if err != nil {
			return err
		}
		for i, c := range res.found {
			if found[i] {
				c.cosine, c.hasDense, c.model = cos[i], true, s.emb.Name()
			}
		}
	}
	res.Stats.MeanCosine = nil
	if embedded {
		res.Stats.MeanCosine = meanCosine(res.found)
	}
	return nil
}

// meanCosine is the mean cosine of the candidates that have one, nil when
// none has.
func meanCosine(cands []*candidate) *float64 {
	var sum float64
	n := 0
	for _, c := range cands {
		if c.hasDense {
			sum, n = sum+c.cosine, n+1
		}
	}
	return mean(sum, n)
}
