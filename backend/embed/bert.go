package embed

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	ort "github.com/yalue/onnxruntime_go"
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
}

// BERT embeds text with a BERT-family sentence encoder exported to ONNX
// (all-MiniLM-L6-v2, paraphrase-multilingual-MiniLM-L12-v2): the token states
// are averaged over the attended positions (attention-masked mean pooling)
// and the mean is scaled to unit length, as sentence-transformers does.
//
// A text that is empty or only whitespace gets a zero vector, as with USELite.
type BERT struct {
	name  string
	tok   *BERTTokenizer
	max   int
	batch int
	dim   int
	types bool // the model takes token_type_ids

	sess *Session
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
	tok, err := LoadBERTTokenizer(o.Tokenizer)
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	if err := InitRuntime(o.Library); err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	sess, types, out, err := OpenBERTSession(o.Model, "last_hidden_state", o.Threads)
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
	return &BERT{name: o.Name, tok: tok, max: o.MaxTokens, batch: o.BatchSize, dim: dim, types: types, sess: NewSession(sess)}, nil
}

// OpenBERTSession opens a BERT-shaped model with the package's session
// options (no spinning threads) and reads one named output. types reports
// whether the model takes token_type_ids (XLM-R exports do not); the inputs
// are fed in the order input_ids, attention_mask[, token_type_ids]. Package
// rerank uses it for cross-encoders.
func OpenBERTSession(model, output string, threads int) (sess *ort.DynamicAdvancedSession, types bool, out ort.InputOutputInfo, err error) {
	ins, outs, err := ort.GetInputOutputInfo(model)
	if err != nil {
		return nil, false, out, fmt.Errorf("reading model %s: %w", model, err)
	}
	names := map[string]bool{}
	for _, in := range ins {
		names[in.Name] = true
	}
	if !names["input_ids"] || !names["attention_mask"] {
		return nil, false, out, fmt.Errorf("model %s lacks input_ids or attention_mask (inputs %v)", model, ins)
	}
	inputs := []string{"input_ids", "attention_mask"}
	if types = names["token_type_ids"]; types {
		inputs = append(inputs, "token_type_ids")
	}
	if len(ins) != len(inputs) {
		return nil, false, out, fmt.Errorf("model %s has unexpected inputs %v", model, ins)
	}
	i := slices.IndexFunc(outs, func(o ort.InputOutputInfo) bool { return o.Name == output })
	if i < 0 {
		return nil, false, out, fmt.Errorf("model %s has no output %s", model, output)
	}
	so, err := sessionOptions(threads)
	if err != nil {
		return nil, false, out, fmt.Errorf("session options: %w", err)
	}
	defer so.Destroy()
	sess, err = ort.NewDynamicAdvancedSession(model, inputs, []string{output}, so)
	if err != nil {
		return nil, false, out, fmt.Errorf("loading model %s: %w", model, err)
	}
	return sess, types, outs[i], nil
}

// NewCancelableRun makes run options that ctx's cancellation terminates;
// release must be called once the runs are over.
func NewCancelableRun(ctx context.Context) (opts *ort.RunOptions, release func(), err error) {
	return newRun(ctx)
}

// Name identifies the model (and its vector space).
func (e *BERT) Name() string { return e.name }

// Dim is the model's hidden size (384 for the MiniLM models).
func (e *BERT) Dim() int { return e.dim }

// MaxTokens is the truncation length, special tokens included (0: none).
func (e *BERT) MaxTokens() int { return e.max }

// Tokenizer gives access to the model's tokenizer.
func (e *BERT) Tokenizer() *BERTTokenizer { return e.tok }

// Close releases the ONNX Runtime session; it waits for running Embed calls.
func (e *BERT) Close() error { return e.sess.Close() }

// Embed returns one unit vector per text (zero for blank texts), running
// BatchSize texts per model call; texts of similar length share a batch to
// limit padding. Cancelling ctx stops between batches and interrupts a
// running batch.
func (e *BERT) Embed(ctx context.Context, texts []string) ([][]float32, error) {
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
		if ids[i], err = e.tok.Encode(s, e.max); err != nil {
			return nil, fmt.Errorf("embed: tokenizing text %d: %w", i, err)
		}
		order = append(order, i)
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(ids[a]) - len(ids[b]) })

	run, release, err := newRun(ctx)
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
		b := NewBERTBatch(len(rows), e.tok.PadID())
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
func (e *BERT) run(sess *ort.DynamicAdvancedSession, opts *ort.RunOptions, b *BERTBatch, rows []int, out [][]float32) error {
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
	for r, text := range rows {
		if err := b.MeanPool(states, r, e.dim, out[text]); err != nil {
			return fmt.Errorf("%w: text %d: %v", ErrBadOutput, text, err)
		}
	}
	return nil
}

// BERTBatch is the padded model input of some token sequences.
type BERTBatch struct {
	rows     [][]int64
	typeRows [][]int64
	pad      int64
	seq      int
}

// NewBERTBatch starts a batch for up to n rows, padded with pad.
func NewBERTBatch(n int, pad int64) *BERTBatch {
	return &BERTBatch{rows: make([][]int64, 0, n), typeRows: make([][]int64, 0, n), pad: pad}
}

// Add appends a row of ids and their token type ids (nil: all 0).
func (b *BERTBatch) Add(ids, types []int64) {
	b.rows = append(b.rows, ids)
	b.typeRows = append(b.typeRows, types)
	b.seq = max(b.seq, len(ids))
}

// Rows is the number of rows; Seq the padded length.
func (b *BERTBatch) Rows() int { return len(b.rows) }

// Seq is the padded sequence length (the longest row).
func (b *BERTBatch) Seq() int { return b.seq }

// Tensors builds input_ids, attention_mask and, when withTypes, token_type_ids
// [rows, seq] int64; free destroys them.
func (b *BERTBatch) Tensors(withTypes bool) (vals []ort.Value, free func(), err error) {
	n := len(b.rows) * b.seq
	ids, mask, types := make([]int64, n), make([]int64, n), make([]int64, n)
	for r, row := range b.rows {
		for p := range b.seq {
			i := r*b.seq + p
			if p >= len(row) {
				ids[i] = b.pad
				continue
			}
			ids[i], mask[i] = row[p], 1
			if t := b.typeRows[r]; t != nil {
				types[i] = t[p]
			}
		}
	}
	data := [][]int64{ids, mask}
	if withTypes {
		data = append(data, types)
	}
	free = func() {
		for _, v := range vals {
			v.Destroy()
		}
	}
	shape := ort.NewShape(int64(len(b.rows)), int64(b.seq))
	for _, d := range data {
		t, err := ort.NewTensor(shape, d)
		if err != nil {
			free()
			return nil, nil, err
		}
		vals = append(vals, t)
	}
	return vals, free, nil
}

// MeanPool averages row r of states [rows, seq, dim] over its attended
// (non-padding) positions, scales the mean to unit length and writes it to
// dst. A non-finite or zero mean is an error.
func (b *BERTBatch) MeanPool(states []float32, r, dim int, dst []float32) error {
	n := len(b.rows[r])
	sum := make([]float64, dim)
	base := r * b.seq * dim
	for p := range n {
		for k, x := range states[base+p*dim : base+(p+1)*dim] {
			sum[k] += float64(x)
		}
	}
	var sq float64
	for k := range sum {
		sum[k] /= float64(n)
		sq += sum[k] * sum[k]
	}
	norm := math.Sqrt(sq)
	if math.IsNaN(norm) || math.IsInf(norm, 0) || norm == 0 {
		return fmt.Errorf("pooled vector has norm %v", norm)
	}
	for k := range sum {
		dst[k] = float32(sum[k] / norm)
	}
	return nil
}
