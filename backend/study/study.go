// Package study makes study material from one document of the session, one
// section of its outline, several documents or the whole library: a study guide (summary, key terms, likely
// exam questions), flashcards and a quiz. It reads every passage of that
// scope in batches sized to the routed model's context (map; a batch may
// hold passages of several documents, each labelled with its own), merges
// the notes (reduce), and checks every line with the citation checker the
// answers use (package cite): a line whose citation is not verified is
// kept and marked. Requests go through the model service's router and
// fallback (package llm), paced by the rate limits' Retry-After; a reply
// with no line in the format asked for goes to the next model too, and
// when no model gives one the job fails (ErrUnformatted). Without
// a model a guide is an extractive outline; cards and quizzes say that
// they need one.
//
// Call sites read: study.New(docs, svc).Guide(ctx, scope, opts, progress).
package study

import (
	"context"

	"vika/backend/cite"
	"vika/backend/corpus"
	"vika/backend/llm"
)

// Docs is what study needs of the session's documents (*engine.Engine).
type Docs interface {
	Documents(ctx context.Context) ([]corpus.Document, error)
	Chunks(ctx context.Context, docID string) ([]corpus.Chunk, error)
	// Embed returns the vectors of texts by the embedding model that
	// passages of lang go to, and its name; "" and no vectors without an
	// embedding model (flashcards then merge on equal text only).
	Embed(ctx context.Context, lang string, texts []string) (model string, vecs [][]float32, err error)
}

// Studier makes study material. Its methods are safe for concurrent use.
type Studier struct {
	docs Docs
	svc  *llm.Service // nil: no model (extractive outline only)
}

// New returns a Studier over docs asking svc's models (svc may be nil).
func New(docs Docs, svc *llm.Service) *Studier { return &Studier{docs: docs, svc: svc} }

// Scope is what to study: a document, optionally one section of its
// outline (matched by title, case and spacing aside), or a selection of
// text from the viewer (Text on Page); or several documents (Docs, with
// DocID if set) or every document of the session (All), read as one: a
// section or a selection belongs to one document.
type Scope struct {
	DocID   string   `json:"doc_id"`
	Docs    []string `json:"docs,omitempty"`
	All     bool     `json:"all,omitempty"`
	Section string   `json:"section,omitempty"`
	Text    string   `json:"text,omitempty"` // a selection: cards from it alone
	Page    int      `json:"page,omitempty"` // the selection's page
	// Mine studies the student's own highlights and notes (passages of
	// kind corpus.ChunkMine) of the documents kept, and nothing else:
	// cards from highlights. Without it those passages are left out (a
	// guide is of the documents).
	Mine bool `json:"mine,omitempty"`
}

// Options tune a request. Zero fields take their defaults.
type Options struct {
	// Lang is the language to write in (ISO 639-1); "" follows the
	// document's language.
	Lang string `json:"lang,omitempty"`
	// Model is a manual choice ("provider/id"); "" routes automatically.
	Model string `json:"model,omitempty"`
	// Cards is how many flashcards to ask for per batch; 0 means 10.
	Cards int `json:"cards,omitempty"`
	// BatchTokens lowers the passages' budget of a request below the
	// model's (0 keeps the model's): a script's way to keep requests
	// small for a provider with a low per-minute token limit.
	BatchTokens int `json:"batch_tokens,omitempty"`
}

// Progress reports a long job: Done of Total requests answered.
type Progress struct {
	Stage string `json:"stage"` // "map", "reduce", "cards"
	Done  int    `json:"done"`
	Total int    `json:"total"`
	// Waiting is the seconds the job waits for a rate limit to pass; 0
	// when it is not waiting.
	Waiting int `json:"waiting,omitempty"`
}

// Check is the citation checker's verdict on one line.
type Check struct {
	Verified bool   `json:"verified"`
	Reason   string `json:"reason,omitempty"` // a cite.Reason* code when not verified
	Label    string `json:"label,omitempty"`  // the first label cited ("" for none)
	DocID    string `json:"doc_id,omitempty"`
	Page     int    `json:"page,omitempty"`
	// Citations are the checker's verdicts on each citation of the line,
	// with their offsets, as an answer's: the window's chips read them.
	Citations []cite.Citation `json:"citations,omitempty"`
}
