package message

// Search codes: a part of a search that failed while the rest stands
// (retrieve.Stats).
const (
	// reranker, detail: the reranker's error; the hits are in retrieval order
	SearchRerankFailed = "search.rerank_failed"
	// detail: the figure list's error; the text's ranking stands
	SearchFiguresFailed = "search.figures_failed"
	// detail: the embedding model's error on the query; the search went on
	// with keywords (BM25) alone
	SearchDenseFailed = "search.dense_failed"
)

func init() {
	english[SearchRerankFailed] = func(p Params) string {
		return "the reranker " + str(p, "reranker") + " failed, passages are in retrieval order: " + str(p, "detail")
	}
	english[SearchFiguresFailed] = func(p Params) string {
		return "the figure list failed, the ranking of the text stands: " + str(p, "detail")
	}
	english[SearchDenseFailed] = func(p Params) string {
		return "the embedding model failed on the question, passages were searched by keywords only: " + str(p, "detail")
	}
}
