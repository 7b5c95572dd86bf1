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
// gives them, and a hit it did not retrieve has none (nil). The dense
// scores of an expanded query are those of the text that found the hit,
// not the question's: they are dropped (DenseScore nil). What the
// question says of its answer's form is not searched (searchedText).
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
	for i := range res.Hits {
		c := res.found[i]
		c.lexical, c.lexicalRank = 0, 0
		if n, ok := rank[c.id]; ok {
			c.lexical, c.lexicalRank = probe[n-1].Score, n
		}
		if expanded {
			c.cosine, c.hasDense, c.model = 0, false, ""
		}
		setScores(&res.Hits[i], c)
	}
	res.Stats.Latency = r.now().Sub(start)
	return res, nil
}
