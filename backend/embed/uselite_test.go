package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	ort "github.com/yalue/onnxruntime_go"

	"vika/backend/assets"
	"vika/backend/assets/assetstest"
)

// requireAsset returns the verified path of an installed asset (see
// assetstest: skipped without it, a failure under `make test`).
func requireAsset(tb testing.TB, kind assets.Kind) string {
	tb.Helper()
	return assetstest.Require(tb, kind)
}

func requireOptions(tb testing.TB) USELiteOptions {
	tb.Helper()
	for _, k := range assets.Kinds {
		requireAsset(tb, k)
	}
	o, err := DefaultUSELiteOptions()
	if err != nil {
		tb.Fatal(err)
	}
	return o
}

var shared struct {
	once sync.Once
	e    *USELite
	err  error
}

// sharedEmbedder is one USELite for the whole test binary (loading takes a
// few hundred milliseconds).
func sharedEmbedder(tb testing.TB) *USELite {
	tb.Helper()
	o := requireOptions(tb)
	shared.once.Do(func() { shared.e, shared.err = LoadUSELite(o) })
	if shared.err != nil {
		tb.Fatal(shared.err)
	}
	return shared.e
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

func length(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func embedAll(t *testing.T, e Embedder, texts ...string) [][]float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(v) != len(texts) {
		t.Fatalf("got %d vectors for %d texts", len(v), len(texts))
	}
	return v
}

func TestEmbedSimilarity(t *testing.T) {
	e := sharedEmbedder(t)
	v := embedAll(t, e,
		"The cat sat on the mat.",
		"A cat is sitting on a rug.",
		"The enzyme kinetics follow the Michaelis-Menten equation at low substrate concentrations.")
	related, unrelated := cosine(v[0], v[1]), cosine(v[0], v[2])
	t.Logf("cos(cat, cat on rug) = %.3f, cos(cat, enzyme kinetics) = %.3f", related, unrelated)
	if related < unrelated+0.3 {
		t.Errorf("related %.3f is not clearly above unrelated %.3f", related, unrelated)
	}
}

// varied are texts of very different lengths, so batches mix short and long rows.
func varied() []string {
	texts := []string{"Hi.", "A cat is sitting on a rug.", "Élèves et professeurs.", "😀 🚀", "x"}
	texts = append(texts, benchTexts(40)...)
	texts = append(texts, strings.Repeat("Photosynthesis converts light into chemical energy. ", 30))
	return texts
}

func TestEmbedBatchMatchesSingle(t *testing.T) {
	e := sharedEmbedder(t)
	texts := varied()
	batched := embedAll(t, e, texts...)
	for i, s := range texts {
		one := embedAll(t, e, s)[0]
		for k := range one {
			if d := math.Abs(float64(one[k] - batched[i][k])); d > 1e-5 {
				t.Fatalf("text %d dim %d: batch %v, alone %v", i, k, batched[i][k], one[k])
			}
		}
	}
}

func TestEmbedUnitLength(t *testing.T) {
	e := sharedEmbedder(t)
	for i, v := range embedAll(t, e, varied()...) {
		if len(v) != e.Dim() {
			t.Fatalf("vector %d has %d dims", i, len(v))
		}
		if n := length(v); math.Abs(n-1) > 1e-5 {
			t.Errorf("vector %d has norm %v", i, n)
		}
	}
}

func TestEmbedEmpty(t *testing.T) {
	e := sharedEmbedder(t)
	v := embedAll(t, e, "", "A cat.", " \t\n", "\u3000")
	alone := embedAll(t, e, "A cat.")[0]
	for _, i := range []int{0, 2, 3} {
		if n := length(v[i]); n != 0 {
			t.Errorf("blank text %d: norm %v, want a zero vector", i, n)
		}
	}
	if c := cosine(v[1], alone); c < 1-1e-6 {
		t.Errorf("text between blanks: cosine %v with itself alone", c)
	}
	if v, err := e.Embed(context.Background(), nil); err != nil || len(v) != 0 {
		t.Errorf("Embed(nil) = %v, %v", v, err)
	}
}

// TestEmbedGolden compares with TF.js running the original graph and
// JavaScript embedder (testdata/golden/gen.sh).
func TestEmbedGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/embed_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Cases []struct {
			Text   string    `json:"text"`
			First8 []float64 `json:"first8"`
		} `json:"cases"`
		Cosines []struct {
			A, B   int
			Cosine float64
		} `json:"cosines"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	e := sharedEmbedder(t)
	var texts []string
	for _, c := range g.Cases {
		texts = append(texts, c.Text)
	}
	v := embedAll(t, e, texts...)
	for i, c := range g.Cases {
		for k, want := range c.First8 {
			if d := math.Abs(float64(v[i][k]) - want); d > 1e-5 {
				t.Errorf("%q dim %d = %v, TF.js %v", c.Text, k, v[i][k], want)
			}
		}
	}
	for _, c := range g.Cosines {
		if got := cosine(v[c.A], v[c.B]); math.Abs(got-c.Cosine) > 1e-5 {
			t.Errorf("cosine(%d, %d) = %v, TF.js %v", c.A, c.B, got, c.Cosine)
		}
	}
}

// TestEmbedTruncation checks that cutting at USELiteMaxTokens before the call
// gives what the model computes from the full token sequence.
func TestEmbedTruncation(t *testing.T) {
	e := sharedEmbedder(t)
	long := strings.Repeat("Gene expression is regulated by transcription factors binding DNA. ", 25)
	ids := e.Tokenizer().Encode(long)
	if len(ids) <= 2*USELiteMaxTokens {
		t.Fatalf("test text has only %d tokens", len(ids))
	}
	var b batch
	b.add(0, ids)
	sess, done, ok := e.sess.Acquire()
	if !ok {
		t.Fatal("session closed")
	}
	full, err := infer(sess, nil, &b)
	done()
	if err != nil {
		t.Fatal(err)
	}
	got := embedAll(t, e, long)[0]
	for k := range got {
		if d := math.Abs(float64(got[k] - full[k])); d > 1e-6 {
			t.Fatalf("dim %d: truncated %v, full %v", k, got[k], full[k])
		}
	}
	if n := e.CountTokens(long); n != len(ids) {
		t.Errorf("CountTokens = %d, want %d", n, len(ids))
	}
}

func TestEmbedCancel(t *testing.T) {
	e := sharedEmbedder(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Embed(ctx, []string{"a"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed with a cancelled context = %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := e.Embed(ctx, benchTexts(3000))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Embed past its deadline = %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancellation took %v", d)
	}
}

func TestClose(t *testing.T) {
	e, err := LoadUSELite(requireOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if e.Name() != "use-lite" || e.Dim() != 512 {
		t.Errorf("Name, Dim = %q, %d", e.Name(), e.Dim())
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := e.Embed(context.Background(), []string{"a"}); !errors.Is(err, ErrClosed) {
		t.Errorf("Embed after Close = %v, want ErrClosed", err)
	}
}

func TestConcurrentEmbed(t *testing.T) {
	e := sharedEmbedder(t)
	want := embedAll(t, e, "Concurrency is not parallelism.")[0]
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := e.Embed(context.Background(), []string{"Concurrency is not parallelism."})
			if err != nil || cosine(v[0], want) < 1-1e-6 {
				t.Errorf("concurrent Embed: %v", err)
			}
		}()
	}
	wg.Wait()
}

func TestMissingAssets(t *testing.T) {
	t.Setenv("VIKA_DATA_DIR", t.TempDir())
	t.Setenv("VIKA_ORT_LIB", "")
	_, err := DefaultUSELiteOptions()
	if !errors.Is(err, assets.ErrMissing) || !strings.Contains(err.Error(), "run `make assets`") {
		t.Errorf("DefaultUSELiteOptions without assets = %v", err)
	}
}

// benchTexts makes n deterministic sentences of about 40 words.
func benchTexts(n int) []string {
	words := strings.Fields(`the protein structure model predicts binding energy of ligands
		in aqueous solution while temperature and pressure vary across experiments with
		statistical significance measured by regression analysis on large datasets from
		several laboratories using spectroscopy microscopy and simulation methods`)
	seed := uint32(12345)
	out := make([]string, n)
	for i := range out {
		var sb strings.Builder
		for w := 0; w < 40; w++ {
			seed = seed*1664525 + 1013904223
			if w > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(words[seed>>16%uint32(len(words))])
		}
		sb.WriteByte('.')
		out[i] = sb.String()
	}
	return out
}

// BenchmarkEmbed is the full path: tokenize, batch, run, check, copy.
func BenchmarkEmbed(b *testing.B) {
	e := sharedEmbedder(b)
	texts := benchTexts(32)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkORTBaseline feeds the same batch as BenchmarkEmbed, tokenized and
// turned into tensors once, straight to the session: the gap between the two
// is the cost of our tokenizer and batching.
func BenchmarkORTBaseline(b *testing.B) {
	e := sharedEmbedder(b)
	texts := benchTexts(32)
	var bt batch
	for i, s := range texts {
		bt.add(i, e.Tokenizer().Encode(s))
	}
	n := int64(len(bt.values))
	indices, err := ort.NewTensor(ort.NewShape(n, 2), bt.indices)
	if err != nil {
		b.Fatal(err)
	}
	defer indices.Destroy()
	values, err := ort.NewTensor(ort.NewShape(n), bt.values)
	if err != nil {
		b.Fatal(err)
	}
	defer values.Destroy()
	out, err := ort.NewEmptyTensor[float32](ort.NewShape(int64(len(texts)), USELiteDim))
	if err != nil {
		b.Fatal(err)
	}
	defer out.Destroy()
	sess, done, ok := e.sess.Acquire()
	if !ok {
		b.Fatal("session closed")
	}
	defer done()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := sess.Run([]ort.Value{indices, values}, []ort.Value{out}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "docs/s")
}

func ExampleUSELite() {
	opts, err := DefaultUSELiteOptions()
	if err != nil {
		fmt.Println(err) // names the missing or corrupt file and says to run `make assets`
		return
	}
	e, err := LoadUSELite(opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()
	vecs, err := e.Embed(context.Background(), []string{"The cat sat on the mat."})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(vecs), len(vecs[0]))
}
