package embed

import (
	"context"
	"fmt"
	"slices"
	"strings"

	ort "github.com/yalue/onnxruntime_go"

	"vika/backend/onnx"
)

// BERTOptions configure LoadBERT.
type BERTOptions struct {
	Name      string // model name, reported by Name(): it identifies the vector space
	Library   string // ONNX Runtime shared library
	Model     string // model.onnx: inputs input_ids, attention_mask (and token_type_ids), output last_hidden_state
	Tokenizer string // tokenizer.json
	MaxTokens int    // longest input in tokens, special tokens included (256 for all-MiniLM-L6-v2)
	Threads   int    // intra-op threads; 0 means 1
	BatchSize int    // texts per model call; 0 means DefaultBatchSize
	// Pooling is "mean" (attention-masked mean; "" too) or "cls" (the
	// first token's state, as bge models do).
	Pooling string
	// PassagePrefix is put before every text Embed is given, QueryPrefix
	// before those of the embedder ForQueries returns (multilingual-e5
	// wants "passage: " and "query: ").
	PassagePrefix, QueryPrefix string
}

// BERT embeds text with a BERT-family sentence encoder exported to ONNX
// (all-MiniLM-L6-v2, paraphrase-multilingual-MiniLM-L12-v2): the token states
// are averaged over the attended positions (attention-masked mean pooling)
// and the mean is scaled to unit length, as sentence-transformers does.
//
// A text that is empty or only whitespace gets a zero vector, as with USELite.
type BERT struct {
	name  string
	tok   *onnx.BERTTokenizer
	max   int
	batch int
	dim   int
	types bool // the model takes token_type_ids
	cls   bool // pool the first token, not the mean

	passage, query string // prefixes of passages and queries

	sess *onnx.Runner
}

var _ Embedder = (*BERT)(nil)

// LoadBERT loads the ONNX Runtime library (once per process), the tokenizer
// and the model, whose output must be last_hidden_state [batch, seq, dim].
// It does not verify the files' hashes: package models does that when it
// installs them.
func LoadBERT(o BERTOptions) (*BERT, error) {
	if o.Threads == 0 {
		o.Threads = 1
	}
	if o.BatchSize == 0 {
		o.BatchSize = DefaultBatchSize
	}
	if o.Threads < 0 || o.BatchSize < 0 || o.MaxTokens < 0 || o.MaxTokens == 1 || o.MaxTokens == 2 {
		return nil, fmt.Errorf("embed: bad options: threads %d, batch size %d, max tokens %d", o.Threads, o.BatchSize, o.MaxTokens)
	}
	if o.Pooling != "" && o.Pooling != "mean" && o.Pooling != "cls" {
		return nil, fmt.Errorf("embed: bad options: pooling %q (mean or cls)", o.Pooling)
	}
	tok, err := onnx.LoadBERTTokenizer(o.Tokenizer)
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	if err := onnx.InitRuntime(o.Library); err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	sess, types, out, err := onnx.OpenBERT(o.Model, "last_hidden_state", o.Threads)
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	dim := 0
	if d := out.Dimensions; len(d) == 3 && d[2] > 0 {
		dim = int(d[2])
	} else {
		sess.Destroy()
		return nil, fmt.Errorf("embed: model %s: last_hidden_state has shape %v, want [batch, seq, dim]", o.Model, d)
	}
	return &BERT{name: o.Name, tok: tok, max: o.MaxTokens, batch: o.BatchSize, dim: dim, types: types, cls: o.Pooling == "cls",
		passage: o.PassagePrefix, query: o.QueryPrefix, sess: onnx.NewRunner(sess)}, nil
}

// Name identifies the model (and its vector space).
func (e *BERT) Name() string { return e.name }

// Dim is the model's hidden size (384 for the MiniLM models).
func (e *BERT) Dim() int { return e.dim }

// MaxTokens is the truncation length, special tokens included (0: none).
func (e *BERT) MaxTokens() int { return e.max }

// Tokenizer gives access to the model's tokenizer.
func (e *BERT) Tokenizer() *onnx.BERTTokenizer { return e.tok }

// Close releases the ONNX Runtime session; it waits for running Embed calls.
func (e *BERT) Close() error { return e.sess.Close() }

// Embed returns one unit vector per text (zero for blank texts), running
// BatchSize texts per model call; texts of similar length share a batch to
// limit padding. Each text is preceded by the passage prefix. Cancelling
// ctx stops between batches and interrupts a running batch.
func (e *BERT) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return e.embed(ctx, texts, e.passage)
}

// ForQueries returns the embedder of search queries: e with the query
// prefix in place of the passage prefix (e itself when both are empty).
// Closing it closes e.
func (e *BERT) ForQueries() Embedder {
	if e.query == e.passage {
		return e
	}
	return queryBERT{e}
}

// queryBERT embeds with the query prefix.
type queryBERT struct{ *BERT }

func (q queryBERT) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return q.embed(ctx, texts, q.query)
}

func (e *BERT) embed(ctx context.Context, texts []string, prefix string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sess, done, ok := e.sess.Acquire()
	if !ok {
		return nil, ErrClosed
	}
	defer done()
	ids := make([][]int64, len(texts))
	var order []int // texts to run, shortest first
	for i, s := range texts {
		if strings.TrimSpace(s) == "" {
			continue
		}
		var err error
		if ids[i], err = e.tok.Encode(prefix+s, e.max); err != nil {
			return nil, fmt.Errorf("embed: tokenizing text %d: %w", i, err)
		}
		order = append(order, i)
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(ids[a]) - len(ids[b]) })

	run, release, err := onnx.NewRun(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	flat := make([]float32, len(texts)*e.dim)
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = flat[i*e.dim : (i+1)*e.dim : (i+1)*e.dim]
	}
	for start := 0; start < len(order); start += e.batch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rows := order[start:min(start+e.batch, len(order))]
		b := onnx.NewBERTBatch(len(rows), e.tok.PadID())
		for _, r := range rows {
			b.Add(ids[r], nil)
		}
		if err := e.run(sess, run, b, rows, out); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
	}
	return out, nil
}

// run embeds one batch and writes its pooled rows into out.
func (e *BERT) run(sess *ort.DynamicAdvancedSession, opts *ort.RunOptions, b *onnx.BERTBatch, rows []int, out [][]float32) error {
	inputs, free, err := b.Tensors(e.types)
	if err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	defer free()
	result, err := ort.NewEmptyTensor[float32](ort.NewShape(int64(b.Rows()), int64(b.Seq()), int64(e.dim)))
	if err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	defer result.Destroy()
	if err := sess.RunWithOptions(inputs, []ort.Value{result}, opts); err != nil {
		return fmt.Errorf("embed: running %s: %w", e.name, err)
	}
	states := result.GetData()
	pool := b.MeanPool
	if e.cls {
		pool = b.CLSPool
	}
	for r, text := range rows {
		if err := pool(states, r, e.dim, out[text]); err != nil {
			return fmt.Errorf("%w: text %d: %v", ErrBadOutput, text, err)
		}
	}
	return nil
}
