package embed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"vika/backend/assets"
	"vika/backend/models"
	"vika/backend/models/modelstest"
	"vika/backend/onnx"
)

// The fixtures under the repository's testdata/bert are written by its gen.sh: a tiny
// WordPiece tokenizer.json, BERT-shaped ONNX models with seeded random
// weights, token ids from npm @huggingface/tokenizers and the expected
// vectors computed with numpy.
const bertDir = "../../testdata/bert"

type bertGolden struct {
	MaxLen int `json:"max_len"`
	Hidden int `json:"hidden"`
	Embed  []struct {
		Text   string    `json:"text"`
		IDs    []int64   `json:"ids"`
		Vector []float64 `json:"vector"`
	} `json:"embed"`
	Rerank []struct {
		Query   string  `json:"query"`
		Passage string  `json:"passage"`
		IDs     []int64 `json:"ids"`
		TypeIDs []int64 `json:"type_ids"`
	} `json:"rerank"`
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(bertDir, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}

// TestBERTTokenizerTruncation checks the cut against the Python rule of tiny_bert.py.
func TestBERTTokenizerTruncation(t *testing.T) {
	var g bertGolden
	readJSON(t, "bert_golden.json", &g)
	tok, err := onnx.LoadBERTTokenizer(filepath.Join(bertDir, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range g.Embed {
		got, err := tok.Encode(c.Text, g.MaxLen)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.IDs, got); diff != "" {
			t.Errorf("Encode(%q, %d) (-python +go):\n%s", c.Text, g.MaxLen, diff)
		}
	}
	for _, c := range g.Rerank {
		ids, types, err := tok.EncodePair(c.Query, c.Passage, g.MaxLen)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([][]int64{c.IDs, c.TypeIDs}, [][]int64{ids, types}); diff != "" {
			t.Errorf("EncodePair(%q, %q, %d) (-python +go):\n%s", c.Query, c.Passage, g.MaxLen, diff)
		}
	}
	if ids, _ := tok.Encode("", 4); len(ids) != 2 {
		t.Errorf("Encode(\"\") = %v, want [CLS] [SEP]", ids)
	}
}

func tinyBERT(t *testing.T, batch int) *BERT {
	t.Helper()
	var g bertGolden
	readJSON(t, "bert_golden.json", &g)
	e, err := LoadBERT(BERTOptions{
		Name:      "tiny-bert",
		Library:   requireAsset(t, assets.ORT),
		Model:     filepath.Join(bertDir, "encoder.onnx"),
		Tokenizer: filepath.Join(bertDir, "tokenizer.json"),
		MaxTokens: g.MaxLen,
		BatchSize: batch,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestBERTEmbedGolden runs the real ONNX Runtime on the tiny encoder and
// compares with numpy: padding in mixed-length batches must not leak into the
// mean, and every vector has unit length.
func TestBERTEmbedGolden(t *testing.T) {
	var g bertGolden
	readJSON(t, "bert_golden.json", &g)
	for _, batch := range []int{1, 3, 64} {
		e := tinyBERT(t, batch)
		if e.Dim() != g.Hidden {
			t.Fatalf("Dim = %d, want %d", e.Dim(), g.Hidden)
		}
		var texts []string
		for _, c := range g.Embed {
			texts = append(texts, c.Text)
		}
		got := embedAll(t, e, texts...)
		for i, c := range g.Embed {
			want := make([]float32, len(c.Vector))
			for k, x := range c.Vector {
				want[k] = float32(x)
			}
			if diff := cmp.Diff(want, got[i], cmpopts.EquateApprox(0, 1e-5)); diff != "" {
				t.Errorf("batch %d: Embed(%q) differs from numpy (-want +got):\n%s", batch, c.Text, diff)
			}
			if l := length(got[i]); math.Abs(l-1) > 1e-5 {
				t.Errorf("batch %d: |Embed(%q)| = %v", batch, c.Text, l)
			}
		}
	}
}

func TestBERTEmbedEdges(t *testing.T) {
	e := tinyBERT(t, 2)
	v := embedAll(t, e, "", "the cat", "  \t")
	if length(v[0]) != 0 || length(v[2]) != 0 || math.Abs(length(v[1])-1) > 1e-5 {
		t.Errorf("lengths %v %v %v, want 0 1 0", length(v[0]), length(v[1]), length(v[2]))
	}
	if v, err := e.Embed(context.Background(), nil); err != nil || len(v) != 0 {
		t.Errorf("Embed(nil) = %v, %v", v, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Embed(ctx, []string{"cat"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Embed: %v", err)
	}
	if e.Name() != "tiny-bert" || e.MaxTokens() != 12 {
		t.Errorf("Name %q MaxTokens %d", e.Name(), e.MaxTokens())
	}
	e.Close()
	if _, err := e.Embed(context.Background(), []string{"cat"}); !errors.Is(err, ErrClosed) {
		t.Errorf("Embed after Close: %v", err)
	}
}

func TestLoadBERTErrors(t *testing.T) {
	lib := requireAsset(t, assets.ORT)
	tokPath := filepath.Join(bertDir, "tokenizer.json")
	for name, o := range map[string]BERTOptions{
		"missing model":   {Library: lib, Model: "nope.onnx", Tokenizer: tokPath},
		"missing vocab":   {Library: lib, Model: filepath.Join(bertDir, "encoder.onnx"), Tokenizer: "nope.json"},
		"no hidden state": {Library: lib, Model: filepath.Join(bertDir, "cross_encoder.onnx"), Tokenizer: tokPath},
		"bad batch":       {Library: lib, Model: filepath.Join(bertDir, "encoder.onnx"), Tokenizer: tokPath, BatchSize: -1},
	} {
		if e, err := LoadBERT(o); err == nil {
			e.Close()
			t.Errorf("%s: LoadBERT succeeded", name)
		}
	}
}

// TestBERTFromDownload installs the tiny model through the model manager
// (from a local HTTP server), loads it as a registry model and checks a
// vector: the path a user's `vika models download` takes.
func TestBERTFromDownload(t *testing.T) {
	requireAsset(t, assets.ORT)
	files := map[string][]byte{}
	m := models.Model{Name: "tiny-bert", Repo: "test/tiny", Revision: "main", Role: models.RoleEmbedder,
		MaxTokens: 12, Pooling: "mean", Output: "last_hidden_state", SHA256Status: models.Pinned}
	for rel, name := range map[string]string{"onnx/model.onnx": "encoder.onnx", "tokenizer.json": "tokenizer.json"} {
		raw, err := os.ReadFile(filepath.Join(bertDir, name))
		if err != nil {
			t.Fatal(err)
		}
		files["/test/tiny/resolve/main/"+rel] = raw
		h := sha256.Sum256(raw)
		m.Files = append(m.Files, models.File{Path: rel, SHA256: hex.EncodeToString(h[:]), Size: int64(len(raw))})
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(raw))
	}))
	defer srv.Close()
	root := t.TempDir()
	if err := (&models.Downloader{BaseURL: srv.URL, Root: root}).Download(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VIKA_EMBED_BATCH_SIZE", "2")
	o, err := BERTOptionsFor(root, m)
	if err != nil {
		t.Fatal(err)
	}
	if o.BatchSize != 2 || o.MaxTokens != 12 || o.Name != "tiny-bert" {
		t.Errorf("options %+v", o)
	}
	e, err := LoadBERT(o)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var g bertGolden
	readJSON(t, "bert_golden.json", &g)
	got := embedAll(t, e, g.Embed[0].Text)[0]
	for k, x := range g.Embed[0].Vector {
		if math.Abs(float64(got[k])-x) > 1e-5 {
			t.Fatalf("component %d: %v, numpy %v", k, got[k], x)
		}
	}
	t.Setenv("VIKA_EMBED_BATCH_SIZE", "zero")
	if _, err := BERTOptionsFor(root, m); err == nil {
		t.Error("bad VIKA_EMBED_BATCH_SIZE accepted")
	}
	if _, err := BERTOptionsFor(t.TempDir(), m); !errors.Is(err, models.ErrNotInstalled) {
		t.Errorf("not installed: %v", err)
	}
}

// TestBERTPrefixes: a model trained with query and passage prefixes
// (multilingual-e5: the registry's "query: " and "passage: " reach the
// options) gets the passage prefix before every text it embeds and the
// query prefix before every query (ForQueries), checked against the plain
// model given the prefixed texts. The tiny vocabulary lacks "query" and
// "passage", so the embedding test uses prefixes made of its words.
func TestBERTPrefixes(t *testing.T) {
	lib := requireAsset(t, assets.ORT)
	root := t.TempDir()
	m := modelstest.Install(t, root, "multilingual-e5-small", filepath.Join(bertDir, "encoder.onnx"), filepath.Join(bertDir, "tokenizer.json"))
	o, err := BERTOptionsFor(root, m)
	if err != nil || o.QueryPrefix != "query: " || o.PassagePrefix != "passage: " || o.Pooling != "mean" {
		t.Fatalf("options of multilingual-e5-small: %+v, %v", o, err)
	}
	plain := tinyBERT(t, 4)
	var g bertGolden
	readJSON(t, "bert_golden.json", &g)
	e5, err := LoadBERT(BERTOptions{
		Name: "tiny-e5", Library: lib,
		Model: filepath.Join(bertDir, "encoder.onnx"), Tokenizer: filepath.Join(bertDir, "tokenizer.json"),
		MaxTokens: g.MaxLen, PassagePrefix: "cell: ", QueryPrefix: "what: ",
	})
	if err != nil {
		t.Fatal(err)
	}
	defer e5.Close()
	texts := []string{"the cat sat", "a dog", ""}
	passages := embedAll(t, e5, texts...)
	queries := embedAll(t, ForQueries(e5), texts...)
	wantP := embedAll(t, plain, "cell: the cat sat", "cell: a dog", "")
	wantQ := embedAll(t, plain, "what: the cat sat", "what: a dog", "")
	if diff := cmp.Diff(wantP, passages, cmpopts.EquateApprox(0, 1e-6)); diff != "" {
		t.Errorf("passages differ from the plain model on prefixed texts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantQ, queries, cmpopts.EquateApprox(0, 1e-6)); diff != "" {
		t.Errorf("queries differ from the plain model on prefixed texts (-want +got):\n%s", diff)
	}
	approx := cmpopts.EquateApprox(0, 1e-6)
	if cmp.Equal(passages[0], queries[0], approx) || cmp.Equal(passages[0], embedAll(t, plain, texts[0])[0], approx) {
		t.Error("the prefixes changed nothing")
	}
	if length(passages[2]) != 0 || length(queries[2]) != 0 {
		t.Error("a blank text with a prefix got a vector")
	}
	if ForQueries(plain) != Embedder(plain) || ForQueries(e5).Name() != "tiny-e5" {
		t.Error("ForQueries of a model without prefixes is not itself, or the query view renamed the model")
	}
}

// TestBERTCLSPooling: pooling "cls" takes the first token's state, scaled
// to unit length. The tiny encoder has no attention (tiny_bert.py), so its
// [CLS] state is the same whatever follows: every cls vector is equal,
// while the means differ. Other poolings are refused.
func TestBERTCLSPooling(t *testing.T) {
	var g bertGolden
	readJSON(t, "bert_golden.json", &g)
	o := BERTOptions{Name: "tiny-bge", Library: requireAsset(t, assets.ORT),
		Model: filepath.Join(bertDir, "encoder.onnx"), Tokenizer: filepath.Join(bertDir, "tokenizer.json"),
		MaxTokens: g.MaxLen, Pooling: "cls"}
	cls, err := LoadBERT(o)
	if err != nil {
		t.Fatal(err)
	}
	defer cls.Close()
	got := embedAll(t, cls, "the cat sat", "the cat sat on the mat")
	mean := embedAll(t, tinyBERT(t, 4), "the cat sat")
	if math.Abs(length(got[0])-1) > 1e-5 || cmp.Equal(got[0], mean[0], cmpopts.EquateApprox(0, 1e-4)) {
		t.Errorf("cls vector: length %v, equal to the mean: %v", length(got[0]), cmp.Equal(got[0], mean[0], cmpopts.EquateApprox(0, 1e-4)))
	}
	if !cmp.Equal(got[0], got[1], cmpopts.EquateApprox(0, 1e-6)) {
		t.Error("cls vectors of the attention-free encoder differ: not the first token's state")
	}
	o.Pooling = "max"
	if e, err := LoadBERT(o); err == nil {
		e.Close()
		t.Error("pooling max accepted")
	}
}
