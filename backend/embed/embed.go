// Package embed turns text into dense vectors for retrieval.
//
// Embedder is what the index and the retrieval code consume. USELite is the
// offline default: Universal Sentence Encoder lite (English, 512 dimensions,
// unit-length output) run through ONNX Runtime, with a Go port of its
// SentencePiece tokenizer. Its files come from package assets
// (scripts/setup/assets.sh installs them). BERT runs the sentence encoders the
// models registry installs. Package onnx holds what they share with the
// cross-encoder: the runtime, the model session and the BERT tokenizer.
package embed

import (
	"context"
	"errors"
)

// Embedder maps texts to vectors of Dim() float32s, one per text, in order.
// Implementations are safe for concurrent use; Close releases them.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Dim() int
	Name() string
	Close() error
}

// Errors returned by the embedders of this package; test with errors.Is.
var (
	ErrClosed    = errors.New("embedder is closed")
	ErrBadOutput = errors.New("embedding model returned an invalid vector")
)

// ForQueries returns the embedder for search queries of e: models trained
// with different prefixes for queries and passages (multilingual-e5) give
// one that adds the query prefix; others are their own.
func ForQueries(e Embedder) Embedder {
	if q, ok := e.(interface{ ForQueries() Embedder }); ok {
		return q.ForQueries()
	}
	return e
}
