package rag

import (
	"encoding/json"

	"vika/backend/cite"
	"vika/backend/corpus"
	"vika/backend/llm"
	"vika/backend/message"
	"vika/backend/metrics"
)

// DefaultK is the number of passages put in the prompt when Options.K is 0.
const DefaultK = 8

// Options are the choices for one question (the UI fills them from
// Settings). Field names are the contract's.
type Options struct {
	// Provider and Model pick a model by hand ("gemini",
	// "gemini-2.5-flash"); both "" route automatically.
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// Mode is the retrieval mode: "" (the engine's default), "dense",
	// "bm25" or "hybrid".
	Mode string `json:"mode"`
	// Fusion is how hybrid mode fuses keywords and meaning: "" (each
	// embedding model's measured profile), "convex" or "rrf"
	// (retrieve.SearchOptions.Fusion).
	Fusion string `json:"fusion,omitempty"`
	// K is the number of passages in the prompt; 0 means DefaultK.
	K int `json:"k"`
	// History puts the last prompt.MaxTurns turns in the prompt and
	// rewrites a follow-up into a standalone question for retrieval.
	History bool `json:"history"`
	// HyDE searches with a passage the cheapest model imagines as the
	// answer; MultiQuery searches with rephrasings too and fuses the
	// results. Both cost a model call before retrieval; both are off by
	// default.
	HyDE       bool `json:"hyde"`
	MultiQuery bool `json:"multi_query"`
	// MultiQueryVariants is how many rephrasings multi-query asks for:
	// 0 means prompt.DefaultRephrasings, at most prompt.MaxRephrasings.
	MultiQueryVariants int `json:"multi_query_variants,omitempty"`
	// Rerank uses the cross-encoder when one is installed.
	Rerank bool `json:"rerank"`
	// RerankDepth is how many candidates the cross-encoder rescores: 0
	// means retrieve.DefaultRerankDepth, at most retrieve.MaxRerankDepth.
	RerankDepth int `json:"rerank_depth,omitempty"`
	// FigureDepth is how many figures the image list (CLIP) adds: nil
	// means retrieve.FigureDepth, 0 turns the list off, at most
	// retrieve.MaxFigureDepth.
	FigureDepth *int `json:"figure_depth,omitempty"`
	// MinBM25 overrides the abstention threshold (Config.MinBM25) when
	// positive.
	MinBM25 float64 `json:"min_bm25,omitempty"`
	// Scope limits the question to some documents and pages: retrieval
	// only sees what it keeps (retrieve.SearchOptions.Scope). The window
	// sends it with every question until the student changes it.
	Scope corpus.Scope `json:"scope"`
	// Selection is a passage selected in the viewer that the question is
	// about: the first source, and the search looks around its page
	// first (selection.go). nil for a question typed on its own.
	Selection *corpus.Selection `json:"selection,omitempty"`
}

// Kinds of answer (Answer.Kind).
const (
	KindLLM        = "llm"        // written by a language model
	KindExtractive = "extractive" // no model available: the best passages quoted
	KindAbstained  = "abstained"  // retrieval too weak: "not found in your documents", no model asked
)

// Source is a passage put in the prompt: the search's own hit, unchanged,
// and its number in the prompt. The hit's scores are the question's (nil when unknown):
// DenseScore, the cosine of the question with the passage, when the
// question itself was embedded (dense and hybrid modes, without HyDE or
// multi-query); LexicalScore, its BM25 score, when BM25 retrieved the
// passage for the question (in every mode: see retrieve.Retriever.SearchQuery).
type Source struct {
	corpus.Hit
	Index int `json:"index"` // 1-based number in the prompt
}

// Answer is one turn of the conversation: the question, the answer and how
// it was obtained. It is also what `vika ask --json` prints.
type Answer struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	// StandaloneQuestion is the rewrite of a follow-up used for
	// retrieval; "" when the question was searched as asked.
	StandaloneQuestion string `json:"standalone_question"`
	// Answer is the Markdown text with its [file.pdf p.3] citations,
	// without the footer.
	Answer    string          `json:"answer"`
	Kind      string          `json:"kind"`
	Citations []cite.Citation `json:"citations"`
	Sources   []Source        `json:"sources"`
	ModelUsed string          `json:"model_used"` // "provider/id"; "" when no model answered
	ModelName string          `json:"model_name"`
	// Footer is the "Model used: ..." line, with the fallback chain.
	Footer        string       `json:"footer"`
	FallbackChain []string     `json:"fallback_chain"`
	Notices       []llm.Notice `json:"notices"`
	// Partial is set when the answer broke off or was cancelled after it
	// started; Cancelled when the user stopped it.
	Partial   bool           `json:"partial"`
	Cancelled bool           `json:"cancelled"`
	Metrics   metrics.Record `json:"metrics"`
}

// Event types, on the "answer:<id>" channel.
const (
	EventStatus  = "status"
	EventSources = "sources"
	EventDelta   = "delta"
	EventNotice  = "notice"
	EventDone    = "done"
	EventError   = "error"
)

// Stages of a status event.
const (
	StageRewriting  = "rewriting"
	StageRetrieving = "retrieving"
	StageGenerating = "generating"
)

// Stages are the stages of status events, in order.
var Stages = []string{StageRewriting, StageRetrieving, StageGenerating}

// Event is what an answer in progress reports. Only the fields of its
// Type are sent (see MarshalJSON).
type Event struct {
	Type    string      `json:"type"`
	Stage   string      `json:"stage,omitempty"`
	Sources []Source    `json:"sources,omitempty"`
	Text    string      `json:"text,omitempty"`
	Notice  *llm.Notice `json:"notice,omitempty"`
	Answer  *Answer     `json:"answer,omitempty"`
	Error   string      `json:"error,omitempty"` // English, for the command line
	// Problem is the error as a code the window translates.
	Problem *message.Message `json:"problem,omitempty"`
}

// MarshalJSON writes the contract's shape of each type: sources as a list
// even when empty, and the answer of an error event as null when there is
// none.
func (e Event) MarshalJSON() ([]byte, error) {
	switch e.Type {
	case EventSources:
		s := e.Sources
		if s == nil {
			s = []Source{}
		}
		return json.Marshal(struct {
			Type    string   `json:"type"`
			Sources []Source `json:"sources"`
		}{e.Type, s})
	case EventError:
		return json.Marshal(struct {
			Type    string           `json:"type"`
			Error   string           `json:"error"`
			Problem *message.Message `json:"problem,omitempty"`
			Answer  *Answer          `json:"answer"`
		}{e.Type, e.Error, e.Problem, e.Answer})
	}
	type plain Event // without this method
	return json.Marshal(plain(e))
}

// MetricsView is the session's metrics: every record and their summary.
type MetricsView struct {
	Records []metrics.Record `json:"records"`
	Summary metrics.Summary  `json:"summary"`
}
