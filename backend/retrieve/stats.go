package retrieve

import (
	"math"
	"time"
	"vika/backend/corpus"

	"vika/backend/index"
	"vika/backend/message"
)

// Result is the outcome of a search.
// Hits are filled with what retrieval knows (ChunkID, Score, FoundBy and
// the scores); the caller labels them with their text and file.
type Result struct {
	Hits  []corpus.Hit `json:"hits"`
	Stats Stats        `json:"stats"`
	// found holds the candidate behind each hit (its ranks and model).
	found []*candidate
}

// Stats describe one search.
type Stats struct {
	// Mode is the mode that ran (hybrid falls back to bm25 without an
	// embedder); Fusion and Profile's weight are set in hybrid mode.
	Mode        Mode    `json:"mode"`
	Fusion      Fusion  `json:"fusion,omitempty"`
	DenseWeight float64 `json:"dense_weight,omitempty"`
	// Latency is the whole search: query embedding, both searches, fusion,
	// reranking.
	// The parts overlap: BM25 runs while the query is embedded.
	Latency time.Duration `json:"latency_ns"`
	Embed   time.Duration `json:"embed_ns"`
	Dense   time.Duration `json:"dense_ns"`
	Lexical time.Duration `json:"lexical_ns"`
	Fuse    time.Duration `json:"fuse_ns"`
	// Rerank is the time the reranker took (0 without one); Latency
	// includes it.
	Rerank time.Duration `json:"rerank_ns"`
	// Reranker names the reranker that ran, "none" without one; Reranked
	// is how many candidates it rescored.
	Reranker string `json:"reranker"`
	Reranked int    `json:"reranked"`
	// RerankScores are the reranker's scores of every candidate it
	// rescored, used or not, best first (Recall@5 counts the relevant
	// ones among all of them); nil when none was rescored.
	RerankScores []float64 `json:"rerank_scores,omitempty"`
	// RerankError says why an installed reranker did not rescore
	// (message.SearchRerankFailed; nil when it did or none ran); the hits
	// are then in retrieval order.
	RerankError *message.Message `json:"rerank_error,omitempty"`
	// DenseError says why a hybrid search ran on keywords alone: the
	// embedding model failed on the query (message.SearchDenseFailed), and
	// Mode is bm25. nil when the query was embedded or no embedding ran.
	DenseError *message.Message `json:"dense_error,omitempty"`
	// KeywordsOnly counts the documents searched by BM25 only because
	// their vectors are still being computed (0 in bm25 mode).
	KeywordsOnly int `json:"keywords_only,omitempty"`
	// Embedders are the embedding models the query was embedded with.
	Embedders []string `json:"embedders,omitempty"`
	// Candidates retrieved by each retriever, distinct ones fused, and
	// hits returned.
	DenseCandidates   int `json:"dense_candidates"`
	LexicalCandidates int `json:"lexical_candidates"`
	Candidates        int `json:"candidates"`
	Used              int `json:"used"`
	// TopLexical is the best BM25 score among the lexical candidates,
	// whether or not they were used (what prompt.Abstain compares with
	// its threshold); 0 when BM25 did not run (dense mode) or found
	// nothing.
	TopLexical float64 `json:"top_lexical"`
	// MeanCosine is the mean cosine of the query with the used chunks;
	// nil when the query was not embedded (bm25 mode). For SearchQuery it
	// is the question's own cosine, whatever texts were searched (HyDE,
	// rephrasings).
	MeanCosine *float64 `json:"mean_cosine,omitempty"`
	// BM25Share is BM25's share of the used hits' scores, in percent: 100
	// in bm25 mode, 0 in dense mode; in hybrid mode the sum of the BM25
	// parts of the fused scores over the sum of both parts (absolute
	// values, z-scores being signed).
	BM25Share float64 `json:"bm25_share_pct"`
	// FoundBy counts the used hits by the retriever that found them.
	FoundBy FoundByCounts `json:"found_by"`
	// ImageModel names the text-to-image model whose figure list joined
	// the ranking, FigureCandidates how many figures it gave and Figures
	// the time it took (question embedded, figures scored); empty when no
	// figure list ran. FigureError says why one failed
	// (message.SearchFiguresFailed).
	ImageModel       string           `json:"image_model,omitempty"`
	FigureCandidates int              `json:"figure_candidates,omitempty"`
	Figures          time.Duration    `json:"figures_ns,omitempty"`
	FigureError      *message.Message `json:"figure_error,omitempty"`
	// SummaryCandidates is how many passages the summary list gave (their
	// summaries nearest the question), Summaries the time it took; 0
	// when no summary list ran (no summaries, or bm25 mode).
	SummaryCandidates int `json:"summary_candidates,omitempty"`
	// ViaSummary counts the used hits the summary list ranked.
	ViaSummary int           `json:"via_summary,omitempty"`
	Summaries  time.Duration `json:"summaries_ns,omitempty"`
}

// FoundByCounts counts hits by Hit.FoundBy.
type FoundByCounts struct {
	Dense int `json:"dense"`
	BM25  int `json:"bm25"`
	Both  int `json:"both"`
	// Image counts figures only the figure list found (FoundImage).
	Image int `json:"image,omitempty"`
	// Summary counts passages only the summary list found (FoundSummary).
	Summary int `json:"summary,omitempty"`
}

func mean(sum float64, n int) *float64 {
	if n == 0 {
		return nil
	}
	m := sum / float64(n)
	return &m
}

// hits converts fused candidates to hits and fills the statistics that
// depend on them.
func hits(cands []*candidate, embedded bool, st Stats) ([]corpus.Hit, Stats) {
	out := make([]corpus.Hit, len(cands))
	var cosSum, lexSum, allSum float64
	cosN := 0
	for i, c := range cands {
		h := corpus.Hit{ChunkID: c.id, Score: c.score, RerankScore: c.rerank, ViaSummary: c.summaryRank > 0}
		if h.ViaSummary {
			st.ViaSummary++
		}
		setScores(&h, c)
		if c.hasDense {
			cosSum += c.cosine
			cosN++
		}
		switch {
		case c.denseRank > 0 && c.lexicalRank > 0:
			h.FoundBy = FoundBoth
			st.FoundBy.Both++
		case c.lexicalRank > 0 || c.pageOnly || c.named: // by the keywords of its page, or of its caption
			h.FoundBy = FoundBM25
			st.FoundBy.BM25++
		case c.denseRank == 0 && c.figureRank > 0:
			h.FoundBy = FoundImage
			st.FoundBy.Image++
		case c.denseRank == 0 && c.summaryRank > 0:
			h.FoundBy = FoundSummary
			st.FoundBy.Summary++
		default:
			h.FoundBy = FoundDense
			st.FoundBy.Dense++
		}
		lexSum += math.Abs(c.lexicalPart)
		allSum += math.Abs(c.lexicalPart) + math.Abs(c.densePart)
		out[i] = h
	}
	if allSum > 0 {
		st.BM25Share = 100 * lexSum / allSum
	}
	if embedded {
		st.MeanCosine = mean(cosSum, cosN)
	}
	return out, st
}

// setScores sets h's DenseScore, the cosine of the query with the chunk,
// when the search embedded the query with the model holding the chunk's
// vector (c.model; 0 for a chunk without a vector), and its LexicalScore
// when BM25 retrieved it; each is nil otherwise. Band is the cosine's
// band for that model (BandsFor), "" without a cosine.
func setScores(h *corpus.Hit, c *candidate) {
	h.DenseScore, h.LexicalScore, h.Band = nil, nil, ""
	if c.model != "" {
		v := 0.0
		if c.hasDense {
			v = c.cosine
			h.Band = BandsFor(c.model).Band(v)
		}
		h.DenseScore = &v
	}
	if c.lexicalRank > 0 {
		v := c.lexical
		h.LexicalScore = &v
	}
}

// topScore is the best score of list, 0 for an empty one.
func topScore(list []index.Scored) float64 {
	top := 0.0
	for i, s := range list {
		if i == 0 || s.Score > top {
			top = s.Score
		}
	}
	return top
}
