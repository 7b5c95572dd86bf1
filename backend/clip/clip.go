// Package clip finds figures by what they show: CLIP (OpenAI's ViT-B/32,
// the transformers.js ONNX export the model manager installs) maps a
// question and each figure crop into one vector space, and the cosine of
// their unit vectors scores the figure for the question. It holds the
// model's byte-level BPE tokenizer, its image preprocessing (PIL's
// bicubic resampling, centre crop, normalisation) and the two ONNX
// sessions, text and vision. CLIP was trained on English captions only.
package clip

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"path"
	"slices"
	"strings"

	ort "github.com/yalue/onnxruntime_go"

	"vika/backend/models"
	"vika/backend/onnx"
)

// Name is CLIP's entry in the models registry.
const Name = "clip-vit-base-patch32"

// DefaultBatchSize is how many images one vision call takes.
const DefaultBatchSize = 8

// Errors; test with errors.Is.
var (
	ErrClosed    = errors.New("clip: the model is closed")
	ErrBadOutput = errors.New("clip: the model returned an invalid vector")
)

// Options configure Load.
type Options struct {
	Name         string // reported by Name(): it identifies the vector space
	Library      string // ONNX Runtime shared library
	TextModel    string // inputs input_ids [and attention_mask] int64 [b, s]; output text_embeds [b, dim]
	VisionModel  string // input pixel_values float32 [b, 3, crop, crop]; output image_embeds [b, dim]
	Tokenizer    string // tokenizer.json (BPE with `</w>` word ends)
	Preprocessor string // preprocessor_config.json; "" means DefaultPreprocess
	Threads      int    // intra-op threads; 0 means 1
	BatchSize    int    // images per vision call; 0 means DefaultBatchSize
}

// OptionsFor returns the options of registry model m installed under root:
// its verified files, the ONNX Runtime library of package assets and the
// thread count of $VIKA_EMBED_THREADS.
func OptionsFor(root string, m models.Model) (Options, error) {
	if m.Role != models.RoleImage {
		return Options{}, fmt.Errorf("clip: %s is not a text-to-image model", m.Name)
	}
	paths, err := models.Verify(root, m)
	if err != nil {
		return Options{}, err
	}
	o := Options{Name: m.Name}
	for rel, p := range paths {
		base := path.Base(rel)
		switch {
		case path.Ext(rel) == ".onnx" && strings.HasPrefix(base, "text_model"):
			o.TextModel = p
		case path.Ext(rel) == ".onnx" && strings.HasPrefix(base, "vision_model"):
			o.VisionModel = p
		case base == "tokenizer.json":
			o.Tokenizer = p
		case base == "preprocessor_config.json":
			o.Preprocessor = p
		}
	}
	if o.TextModel == "" || o.VisionModel == "" || o.Tokenizer == "" {
		return Options{}, fmt.Errorf("clip: %s lists no text model, vision model or tokenizer.json", m.Name)
	}
	o.Library, _, o.Threads, err = onnx.RuntimeSettings(DefaultBatchSize)
	return o, err
}

// Open loads CLIP installed under root; the error wraps
// models.ErrNotInstalled when it is not.
func Open(root string) (*Model, error) {
	m, err := models.Lookup(Name)
	if err != nil {
		return nil, err
	}
	o, err := OptionsFor(root, m)
	if err != nil {
		return nil, err
	}
	return Load(o)
}

// Model is a loaded CLIP: EmbedText for questions, EmbedImages for
// figures. It is safe for concurrent use; Close releases it.
type Model struct {
	name     string
	tok      *Tokenizer
	pre      Preprocess
	dim      int
	batch    int
	textMask bool // the text model takes attention_mask
	text     *onnx.Runner
	vision   *onnx.Runner
}

// Load loads the runtime (once per process), the tokenizer, the
// preprocessing and both models, whose outputs must have the same length.
// It does not verify the files' hashes: package models does.
func Load(o Options) (*Model, error) {
	if o.Threads == 0 {
		o.Threads = 1
	}
	if o.BatchSize == 0 {
		o.BatchSize = DefaultBatchSize
	}
	if o.Threads < 0 || o.BatchSize < 0 {
		return nil, fmt.Errorf("clip: bad options: threads %d, batch size %d", o.Threads, o.BatchSize)
	}
	m := &Model{name: o.Name, batch: o.BatchSize, pre: DefaultPreprocess}
	var err error
	if m.tok, err = LoadTokenizer(o.Tokenizer); err != nil {
		return nil, fmt.Errorf("clip: %w", err)
	}
	if o.Preprocessor != "" {
		if m.pre, err = LoadPreprocess(o.Preprocessor); err != nil {
			return nil, fmt.Errorf("clip: %w", err)
		}
	}
	if err := onnx.InitRuntime(o.Library); err != nil {
		return nil, fmt.Errorf("clip: %w", err)
	}
	text, ins, textDim, err := open(o.TextModel, "text_embeds", o.Threads, "input_ids", "attention_mask")
	if err != nil {
		return nil, err
	}
	if !slices.Contains(ins, "input_ids") {
		text.Destroy()
		return nil, fmt.Errorf("clip: %s has no input_ids input", o.TextModel)
	}
	vision, vins, visionDim, err := open(o.VisionModel, "image_embeds", o.Threads, "pixel_values")
	if err == nil && !slices.Contains(vins, "pixel_values") {
		vision.Destroy()
		err = fmt.Errorf("clip: %s has no pixel_values input", o.VisionModel)
	}
	if err == nil && textDim != visionDim {
		vision.Destroy()
		err = fmt.Errorf("clip: text vectors have %d values, image vectors %d", textDim, visionDim)
	}
	if err != nil {
		text.Destroy()
		return nil, err
	}
	m.dim, m.textMask = textDim, slices.Contains(ins, "attention_mask")
	m.text, m.vision = onnx.NewRunner(text), onnx.NewRunner(vision)
	return m, nil
}

// open opens an ONNX model whose inputs are among allowed (returned in the
// session's order) and whose output named output is [batch, dim].
func open(file, output string, threads int, allowed ...string) (*ort.DynamicAdvancedSession, []string, int, error) {
	ins, outs, err := ort.GetInputOutputInfo(file)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("clip: reading model %s: %w", file, err)
	}
	var names []string
	for _, in := range ins {
		if !slices.Contains(allowed, in.Name) {
			return nil, nil, 0, fmt.Errorf("clip: model %s asks for input %s (known: %v)", file, in.Name, allowed)
		}
		names = append(names, in.Name)
	}
	i := slices.IndexFunc(outs, func(o ort.InputOutputInfo) bool { return o.Name == output })
	if i < 0 {
		return nil, nil, 0, fmt.Errorf("clip: model %s has no output %s", file, output)
	}
	d := outs[i].Dimensions
	if len(d) != 2 || d[1] <= 0 {
		return nil, nil, 0, fmt.Errorf("clip: model %s: %s has shape %v, want [batch, dim]", file, output, d)
	}
	so, err := onnx.SessionOptions(threads)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("clip: session options: %w", err)
	}
	defer so.Destroy()
	sess, err := ort.NewDynamicAdvancedSession(file, names, []string{output}, so)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("clip: loading model %s: %w", file, err)
	}
	return sess, names, int(d[1]), nil
}

// Name identifies the model and its vector space.
func (m *Model) Name() string { return m.name }

// Dim is the length of the vectors.
func (m *Model) Dim() int { return m.dim }

// Tokenizer is the model's text tokenizer.
func (m *Model) Tokenizer() *Tokenizer { return m.tok }

// Preprocess is the model's image preparation.
func (m *Model) Preprocess() Preprocess { return m.pre }

// Close releases both sessions; running calls finish first.
func (m *Model) Close() error { return errors.Join(m.text.Close(), m.vision.Close()) }

// EmbedText returns the unit vector of text (at most MaxTokens tokens, its
// head kept).
func (m *Model) EmbedText(ctx context.Context, text string) ([]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sess, done, ok := m.text.Acquire()
	if !ok {
		return nil, ErrClosed
	}
	defer done()
	ids := m.tok.Encode(text, MaxTokens)
	shape := ort.NewShape(1, int64(len(ids)))
	var inputs []ort.Value
	defer func() {
		for _, v := range inputs {
			v.Destroy()
		}
	}()
	idT, err := ort.NewTensor(shape, ids)
	if err != nil {
		return nil, fmt.Errorf("clip: %w", err)
	}
	inputs = append(inputs, idT)
	if m.textMask {
		mask := make([]int64, len(ids))
		for i := range mask {
			mask[i] = 1
		}
		maskT, err := ort.NewTensor(shape, mask)
		if err != nil {
			return nil, fmt.Errorf("clip: %w", err)
		}
		inputs = append(inputs, maskT)
	}
	out, err := m.run(ctx, sess, inputs, 1)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// EmbedImages returns one unit vector per image, BatchSize images per
// model call. Cancelling ctx stops between batches and interrupts a
// running one.
func (m *Model) EmbedImages(ctx context.Context, imgs []image.Image) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sess, done, ok := m.vision.Acquire()
	if !ok {
		return nil, ErrClosed
	}
	defer done()
	per := 3 * m.pre.Crop * m.pre.Crop
	out := make([][]float32, 0, len(imgs))
	for start := 0; start < len(imgs); start += m.batch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		batch := imgs[start:min(start+m.batch, len(imgs))]
		pixels := make([]float32, len(batch)*per)
		for i, img := range batch {
			m.pre.Pixels(img, pixels[i*per:(i+1)*per])
		}
		t, err := ort.NewTensor(ort.NewShape(int64(len(batch)), 3, int64(m.pre.Crop), int64(m.pre.Crop)), pixels)
		if err != nil {
			return nil, fmt.Errorf("clip: %w", err)
		}
		vecs, err := m.run(ctx, sess, []ort.Value{t}, len(batch))
		t.Destroy()
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// run runs one model call of rows rows and returns its output rows scaled
// to unit length.
func (m *Model) run(ctx context.Context, sess *ort.DynamicAdvancedSession, inputs []ort.Value, rows int) ([][]float32, error) {
	opts, release, err := onnx.NewRun(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	result, err := ort.NewEmptyTensor[float32](ort.NewShape(int64(rows), int64(m.dim)))
	if err != nil {
		return nil, fmt.Errorf("clip: %w", err)
	}
	defer result.Destroy()
	if err := sess.RunWithOptions(inputs, []ort.Value{result}, opts); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("clip: running %s: %w", m.name, err)
	}
	data := result.GetData()
	out := make([][]float32, rows)
	for r := range rows {
		v, err := unit(data[r*m.dim : (r+1)*m.dim])
		if err != nil {
			return nil, fmt.Errorf("%w: row %d: %v", ErrBadOutput, r, err)
		}
		out[r] = v
	}
	return out, nil
}

// unit returns v scaled to length 1; a zero or non-finite v is an error.
func unit(v []float32) ([]float32, error) {
	var sq float64
	for _, x := range v {
		sq += float64(x) * float64(x)
	}
	n := math.Sqrt(sq)
	if n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
		return nil, fmt.Errorf("norm %v", n)
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out, nil
}
