// Package rerank scores (question, passage) pairs with a cross-encoder, to
// reorder the passages retrieval found. Cross-encoders are optional models
// (package models installs them); without one, Open returns no cross-encoder and
// Label reports "none": callers keep the retrieval order and record no
// reranker score rather than inventing one.
package rerank

import (
	"context"
	"errors"
	"fmt"
	"math"

	ort "github.com/yalue/onnxruntime_go"

	"vika/backend/models"
	"vika/backend/onnx"
)

// None is what Label reports when no reranker is in use.
const None = "none"

// Label names r, a reranker (retrieve.Reranker, such as a *CrossEncoder),
// for metrics and the UI: its Name() when it has one, None when r is nil.
func Label(r any) string {
	if ce, ok := r.(*CrossEncoder); r == nil || ok && ce == nil {
		return None
	}
	if n, ok := r.(interface{ Name() string }); ok {
		return n.Name()
	}
	return fmt.Sprintf("%T", r)
}

// ErrClosed is returned by a CrossEncoder used after Close.
var ErrClosed = errors.New("reranker is closed")

// DefaultBatchSize is the number of pairs per model call.
const DefaultBatchSize = 8 // pairs a call: see embed.BERTBatchSize

// Options configure LoadCrossEncoder.
type Options struct {
	Name      string // reported by Name and Label
	Library   string // ONNX Runtime shared library
	Model     string // model.onnx: BERT inputs, output logits [batch, 1]
	Tokenizer string // tokenizer.json (BERT layout for pairs)
	MaxTokens int    // longest pair in tokens, special tokens included; 0: no limit
	Threads   int    // intra-op threads; 0 means 1
	BatchSize int    // pairs per model call; 0 means DefaultBatchSize
}

// CrossEncoder is a BERT cross-encoder (cross-encoder/ms-marco-MiniLM-L-6-v2)
// run through ONNX Runtime: each pair is encoded as [CLS] query [SEP]
// passage [SEP] (longest-first truncation) and the model's single logit is
// the score. It is safe for concurrent use.
type CrossEncoder struct {
	name  string
	tok   *onnx.BERTTokenizer
	max   int
	batch int
	types bool

	sess *onnx.Runner
}

// LoadCrossEncoder loads the ONNX Runtime library (once per process), the
// tokenizer and the model, whose output logits must be [batch, 1].
func LoadCrossEncoder(o Options) (*CrossEncoder, error) {
	if o.Threads == 0 {
		o.Threads = 1
	}
	if o.BatchSize == 0 {
		o.BatchSize = DefaultBatchSize
	}
	if o.Threads < 0 || o.BatchSize < 0 || o.MaxTokens < 0 || (o.MaxTokens > 0 && o.MaxTokens < 3) {
		return nil, fmt.Errorf("rerank: bad options: threads %d, batch size %d, max tokens %d", o.Threads, o.BatchSize, o.MaxTokens)
	}
	tok, err := onnx.LoadBERTTokenizer(o.Tokenizer)
	if err != nil {
		return nil, fmt.Errorf("rerank: %w", err)
	}
	if err := onnx.InitRuntime(o.Library); err != nil {
		return nil, fmt.Errorf("rerank: %w", err)
	}
	sess, types, out, err := onnx.OpenBERT(o.Model, "logits", o.Threads)
	if err != nil {
		return nil, fmt.Errorf("rerank: %w", err)
	}
	if d := out.Dimensions; len(d) != 2 || d[1] != 1 {
		sess.Destroy()
		return nil, fmt.Errorf("rerank: model %s: logits have shape %v, want [batch, 1]", o.Model, d)
	}
	return &CrossEncoder{name: o.Name, tok: tok, max: o.MaxTokens, batch: o.BatchSize, types: types, sess: onnx.NewRunner(sess)}, nil
}

// Open loads the first cross-encoder of the registry that is installed and
// intact under root (models.Root() in the app). With none installed it
// returns nil and no error: Label(nil) is None. A reranker that is
// installed but fails to load is an error.
func Open(root string) (*CrossEncoder, error) {
	for _, m := range models.Rerankers() {
		if !models.Installed(root, m) {
			continue
		}
		o, err := OptionsFor(root, m)
		if err != nil {
			return nil, err
		}
		ce, err := LoadCrossEncoder(o)
		if err != nil {
			return nil, err
		}
		return ce, nil
	}
	return nil, nil
}

// OptionsFor returns the options of registry cross-encoder m installed under
// root, with the ONNX Runtime library of package assets, the batch size from
// $VIKA_EMBED_BATCH_SIZE and the threads from $VIKA_EMBED_THREADS.
func OptionsFor(root string, m models.Model) (Options, error) {
	if m.Role != models.RoleReranker || m.Output != "logits" {
		return Options{}, fmt.Errorf("rerank: %s is not a cross-encoder", m.Name)
	}
	o := Options{Name: m.Name, MaxTokens: m.MaxTokens}
	var err error
	if o.Model, o.Tokenizer, err = models.Locate(root, m); err != nil {
		return o, err
	}
	o.Library, o.BatchSize, o.Threads, err = onnx.RuntimeSettings(DefaultBatchSize)
	return o, err
}

// Name identifies the model.
func (c *CrossEncoder) Name() string { return c.name }

// Close releases the session; it waits for running Rerank calls.
func (c *CrossEncoder) Close() error { return c.sess.Close() }

// Rerank returns the logit of each (query, passage) pair, BatchSize pairs
// per model call. Cancelling ctx stops between batches and interrupts a
// running batch.
func (c *CrossEncoder) Rerank(ctx context.Context, query string, passages []string) ([]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sess, done, ok := c.sess.Acquire()
	if !ok {
		return nil, ErrClosed
	}
	defer done()
	run, release, err := onnx.NewRun(ctx)
	if err != nil {
		return nil, fmt.Errorf("rerank: %w", err)
	}
	defer release()
	scores := make([]float64, 0, len(passages))
	for start := 0; start < len(passages); start += c.batch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		part := passages[start:min(start+c.batch, len(passages))]
		b := onnx.NewBERTBatch(len(part), c.tok.PadID())
		for i, p := range part {
			ids, types, err := c.tok.EncodePair(query, p, c.max)
			if err != nil {
				return nil, fmt.Errorf("rerank: tokenizing passage %d: %w", start+i, err)
			}
			b.Add(ids, types)
		}
		logits, err := c.run(sess, run, b)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
		scores = append(scores, logits...)
	}
	return scores, nil
}

func (c *CrossEncoder) run(sess *ort.DynamicAdvancedSession, opts *ort.RunOptions, b *onnx.BERTBatch) ([]float64, error) {
	inputs, free, err := b.Tensors(c.types)
	if err != nil {
		return nil, fmt.Errorf("rerank: %w", err)
	}
	defer free()
	out, err := ort.NewEmptyTensor[float32](ort.NewShape(int64(b.Rows()), 1))
	if err != nil {
		return nil, fmt.Errorf("rerank: %w", err)
	}
	defer out.Destroy()
	if err := sess.RunWithOptions(inputs, []ort.Value{out}, opts); err != nil {
		return nil, fmt.Errorf("rerank: running %s: %w", c.name, err)
	}
	logits := make([]float64, b.Rows())
	for i, x := range out.GetData() {
		logits[i] = float64(x)
		if math.IsNaN(logits[i]) || math.IsInf(logits[i], 0) {
			return nil, fmt.Errorf("rerank: %s returned the score %v", c.name, x)
		}
	}
	return logits, nil
}
