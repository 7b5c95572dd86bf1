package message

// Search codes: a part of a search that failed while the rest stands
// (retrieve.Stats), or a mode that cannot run.
const (
	// reranker, detail: the reranker's error; the hits are in retrieval order
	SearchRerankFailed = "search.rerank_failed"
	// detail: the figure list's error; the text's ranking stands
	SearchFiguresFailed = "search.figures_failed"
	// detail: the embedding model's error on the query; the search went on
	// with keywords (BM25) alone
	SearchDenseFailed = "search.dense_failed"
	// detail: why no embedding model is loaded; a search by meaning
	// (dense mode) cannot run, keywords can
	SearchDenseUnavailable = "search.dense_unavailable"
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
	english[SearchDenseUnavailable] = func(p Params) string {
		return "searching by meaning needs an embedding model, and none is loaded: " + str(p, "detail")
	}
}
