package embed

import (
	"context"
	"fmt"
	"math"
	"strings"

	ort "github.com/yalue/onnxruntime_go"

	"vika/backend/assets"
	"vika/backend/onnx"
)

const (
	// USELiteDim is the length of a USE-lite vector.
	USELiteDim = 512
	// USELiteMaxTokens is where USE lite stops reading: the model drops every
	// token past the 128th, so Embed truncates before the call (same vector,
	// less work). Chunkers can use CountTokens to stay under it.
	USELiteMaxTokens = 128
	// DefaultBatchSize is the number of texts per ONNX Runtime call (the
	// multilingual BERT model's).
	DefaultBatchSize = 32
	// USELiteBatchSize is USE lite's: smaller batches ran faster, likely
	// because the model makes its sparse input dense to the longest window
	// of the batch, so a small batch pads less. On 128 SciFact
	// passages with one thread (BenchmarkEmbedPassages, a quiet machine,
	// two runs each) 16 made 11.8 passages/s, 32 made 11.2 and 64 made 10.3;
	// the vectors are the same to 1e-8 (TestBatchSizeKeepsVectors).
	USELiteBatchSize = 16
)

// USELiteOptions configure LoadUSELite.
type USELiteOptions struct {
	Library   string // ONNX Runtime shared library
	Model     string // model.onnx
	Vocab     string // vocab.json
	Threads   int    // intra-op threads; 0 means 1
	BatchSize int    // texts per model call; 0 means USELiteBatchSize
}

// DefaultUSELiteOptions uses the verified assets of package assets, the batch
// size from $VIKA_EMBED_BATCH_SIZE (default USELiteBatchSize) and the intra-op thread count
// from $VIKA_EMBED_THREADS (default 1). Errors say which asset is missing or
// corrupt, or which variable is malformed.
func DefaultUSELiteOptions() (USELiteOptions, error) {
	var o USELiteOptions
	var err error
	if o.Library, o.BatchSize, o.Threads, err = onnx.RuntimeSettings(USELiteBatchSize); err != nil {
		return o, err
	}
	if o.Model, err = assets.Verify(assets.USELiteModel); err != nil {
		return o, err
	}
	o.Vocab, err = assets.Verify(assets.USELiteVocab)
	return o, err
}

// USELite embeds English text with Universal Sentence Encoder lite.
//
// A text that is empty or only whitespace has no meaning to match: it gets a
// zero vector (cosine 0 with everything) instead of the model's constant
// "empty input" vector. Every other vector has unit length.
type USELite struct {
	tok   *Tokenizer
	batch int

	sess *onnx.Runner
}

var _ Embedder = (*USELite)(nil)

// LoadUSELite loads the ONNX Runtime library (once per process), the
// vocabulary and the model. It does not check the files' hashes; use
// DefaultUSELiteOptions for the verified installed assets.
func LoadUSELite(o USELiteOptions) (*USELite, error) {
	if o.Threads == 0 {
		o.Threads = 1
	}
	if o.BatchSize == 0 {
		o.BatchSize = USELiteBatchSize
	}
	if o.Threads < 0 || o.BatchSize < 0 {
		return nil, fmt.Errorf("embed: negative threads (%d) or batch size (%d)", o.Threads, o.BatchSize)
	}
	tok, err := LoadTokenizer(o.Vocab)
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	if err := onnx.InitRuntime(o.Library); err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	so, err := onnx.SessionOptions(o.Threads)
	if err != nil {
		return nil, fmt.Errorf("embed: session options: %w", err)
	}
	defer so.Destroy()
	sess, err := ort.NewDynamicAdvancedSession(o.Model,
		[]string{"indices", "values"}, []string{"embedding"}, so)
	if err != nil {
		return nil, fmt.Errorf("embed: loading model %s: %w", o.Model, err)
	}
	return &USELite{tok: tok, batch: o.BatchSize, sess: onnx.NewRunner(sess)}, nil
}

// Name identifies the model (and the vector space) for indexes and metrics.
func (e *USELite) Name() string { return "use-lite" }

// Dim is USELiteDim.
func (e *USELite) Dim() int { return USELiteDim }

// CountTokens is the number of tokens of text before truncation; the model
// reads the first USELiteMaxTokens of them.
func (e *USELite) CountTokens(text string) int { return len(e.tok.Encode(text)) }

// Tokenizer gives access to the model's tokenizer.
func (e *USELite) Tokenizer() *Tokenizer { return e.tok }

// Close releases the ONNX Runtime session; it waits for running Embed calls.
func (e *USELite) Close() error { return e.sess.Close() }

// Embed returns one vector per text, batching BatchSize texts per model call.
// Cancelling ctx stops between batches and interrupts a running batch.
func (e *USELite) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sess, done, ok := e.sess.Acquire()
	if !ok {
		return nil, ErrClosed
	}
	defer done()
	run, release, err := onnx.NewRun(ctx)
	if err != nil {
		return nil, err
	}
	defer release()

	flat := make([]float32, len(texts)*USELiteDim)
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = flat[i*USELiteDim : (i+1)*USELiteDim : (i+1)*USELiteDim]
	}
	var b batch
	for next := 0; next < len(texts); {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b.reset()
		for ; next < len(texts) && len(b.rows) < e.batch; next++ {
			if strings.TrimSpace(texts[next]) == "" {
				continue // zero vector
			}
			ids := e.tok.Encode(texts[next])
			if len(ids) > USELiteMaxTokens {
				ids = ids[:USELiteMaxTokens]
			}
			b.add(next, ids)
		}
		if len(b.rows) == 0 {
			continue
		}
		if err := e.run(sess, run, &b, out); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
	}
	return out, nil
}

// batch is the model input for some texts: (row, position) pairs and ids.
type batch struct {
	indices []int64 // row, position, row, position, ...
	values  []int64
	rows    []int // index in the caller's texts of each row
}

func (b *batch) reset() {
	b.indices, b.values, b.rows = b.indices[:0], b.values[:0], b.rows[:0]
}

func (b *batch) add(text int, ids []int64) {
	row := int64(len(b.rows))
	for pos, id := range ids {
		b.indices = append(b.indices, row, int64(pos))
		b.values = append(b.values, id)
	}
	b.rows = append(b.rows, text)
}

// run embeds one batch and copies its rows into out.
func (e *USELite) run(sess *ort.DynamicAdvancedSession, opts *ort.RunOptions, b *batch, out [][]float32) error {
	vec, err := infer(sess, opts, b)
	if err != nil {
		return fmt.Errorf("embed: running USE lite: %w", err)
	}
	for r, text := range b.rows {
		row := vec[r*USELiteDim : (r+1)*USELiteDim]
		if err := checkUnit(row); err != nil {
			return fmt.Errorf("%w: text %d: %v", ErrBadOutput, text, err)
		}
		copy(out[text], row)
	}
	return nil
}

// infer feeds a batch to the session and returns the rows, flattened.
func infer(sess *ort.DynamicAdvancedSession, opts *ort.RunOptions, b *batch) ([]float32, error) {
	n := int64(len(b.values))
	indices, err := ort.NewTensor(ort.NewShape(n, 2), b.indices)
	if err != nil {
		return nil, err
	}
	defer indices.Destroy()
	values, err := ort.NewTensor(ort.NewShape(n), b.values)
	if err != nil {
		return nil, err
	}
	defer values.Destroy()
	result, err := ort.NewEmptyTensor[float32](ort.NewShape(int64(len(b.rows)), USELiteDim))
	if err != nil {
		return nil, err
	}
	defer result.Destroy()
	if err := sess.RunWithOptions([]ort.Value{indices, values}, []ort.Value{result}, opts); err != nil {
		return nil, err
	}
	return result.GetData(), nil
}

// checkUnit rejects a vector that is not finite and of unit length: the model
// ends with an l2 normalisation, so anything else means a broken model file.
func checkUnit(v []float32) error {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if math.IsNaN(sum) || math.IsInf(sum, 0) || math.Abs(sum-1) > 1e-3 {
		return fmt.Errorf("squared norm %v, want 1", sum)
	}
	return nil
}
