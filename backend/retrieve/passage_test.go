package retrieve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/corpus"
	"vika/backend/lowprio"
)

func TestSentences(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"One. Two! Three? four.", []string{"One.", "Two!", "Three? four."}},
		{"We use e.g. kernels. The end.", []string{"We use e.g. kernels.", "The end."}},
		{"He said \"Stop.\" Then left.", []string{"He said \"Stop.\"", "Then left."}},
		{"Title line\n\nBody  text\nwraps here. 42 is (a number).", []string{"Title line", "Body text wraps here.", "42 is (a number)."}},
		{"  ", nil},
		{"no end", []string{"no end"}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, Sentences(tc.in)); diff != "" {
			t.Errorf("Sentences(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func words(s string) int { return len(strings.Fields(s)) }

func TestPassageSplit(t *testing.T) {
	text := "Aa bb cc. Dd ee. Ff gg hh ii jj kk ll. Mm."
	texts := func(ps []piece) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.text)
		}
		return out
	}
	tests := []struct {
		p    Passage
		want []string
	}{
		{Passage{}, []string{text}},
		{Passage{MaxTokens: 5}, []string{"Aa bb cc. Dd ee.", "Ff gg hh ii jj", "kk ll.", "Mm."}},
		{Passage{MaxTokens: 100}, []string{text}},
		{Passage{PerSentence: true}, []string{"Aa bb cc.", "Dd ee.", "Ff gg hh ii jj kk ll.", "Mm."}},
		{Passage{PerSentence: true, MaxTokens: 4}, []string{"Aa bb cc.", "Dd ee.", "Ff gg hh ii", "jj kk ll.", "Mm."}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, texts(tc.p.split(text, words))); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.p, diff)
		}
	}
	if got := (Passage{MaxTokens: 5}).split(" \n ", words); got != nil {
		t.Errorf("blank text: %v", got)
	}
}

// TestEmbedPassages checks the mean of the pieces' vectors, its weights
// and the unit length of the result, with a fake embedder.
func TestEmbedPassages(t *testing.T) {
	emb := newFakeEmbedder()
	ctx := context.Background()
	texts := []string{"alpha. Beta gamma.", "", "alpha"}
	got, err := EmbedPassages(ctx, emb, Passage{PerSentence: true}, texts, EmbedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// "alpha." and "Beta gamma." are embedded apart; equal weights.
	a, _ := emb.Embed(ctx, []string{"alpha.", "Beta gamma."})
	want := make([]float64, emb.Dim())
	for j := range want {
		want[j] = float64(a[0][j] + a[1][j])
	}
	if diff := cmp.Diff(toUnit(want, emb.Dim()), got[0], cmp.Comparer(func(x, y float32) bool { return math.Abs(float64(x-y)) < 1e-6 })); diff != "" {
		t.Errorf("mean vector (-want +got):\n%s", diff)
	}
	if !isZero(got[1]) {
		t.Error("empty text: want a zero vector")
	}
	// Token weights: "Beta gamma." (2 words, fake counter) counts twice.
	got, err = EmbedPassages(ctx, emb, Passage{PerSentence: true, TokenWeighted: true}, texts[:1], EmbedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for j := range want {
		want[j] = float64(a[0][j] + 2*a[1][j])
	}
	if diff := cmp.Diff(toUnit(want, emb.Dim()), got[0], cmp.Comparer(func(x, y float32) bool { return math.Abs(float64(x-y)) < 1e-6 })); diff != "" {
		t.Errorf("weighted mean (-want +got):\n%s", diff)
	}
	// Progress and cancellation.
	many := make([]string, embedGroup+5)
	for i := range many {
		many[i] = "alpha"
	}
	var reports [][2]int
	if _, err := EmbedPassages(ctx, emb, Passage{}, many, EmbedOptions{Progress: func(done, total int) { reports = append(reports, [2]int{done, total}) }}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][2]int{{embedGroup, len(many)}, {len(many), len(many)}}, reports); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := EmbedPassages(cctx, emb, Passage{}, many, EmbedOptions{}); err == nil {
		t.Error("cancelled: no error")
	}
	// Several workers give the same vectors as one.
	mixed := make([]string, 3*embedGroup+7)
	for i := range mixed {
		mixed[i] = strings.Repeat("word ", i%13) + fmt.Sprint("w", i)
	}
	one, err := EmbedPassages(ctx, emb, Passage{MaxTokens: 4}, mixed, EmbedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var calls int
	var mu sync.Mutex
	three, err := EmbedPassages(ctx, emb, Passage{MaxTokens: 4}, mixed, EmbedOptions{Workers: 3, Progress: func(done, total int) {
		mu.Lock()
		calls++
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(one, three); diff != "" || calls != 4 {
		t.Errorf("3 workers: %d progress calls (want 4), vectors (-1 worker +3):\n%s", calls, diff)
	}
	// An embedder error stops every worker and is returned.
	failing := &fakeEmbedder{dim: 8, fail: errors.New("boom")}
	if _, err := EmbedPassages(ctx, failing, Passage{}, mixed, EmbedOptions{Workers: 2}); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("failing embedder: %v", err)
	}
}

// TestPassagesEmbedInTheBackground: a document's passages are embedded at
// the background CPU priority (one group, and several groups in several
// workers), a question at the normal one, so that reading, OCR and
// questions get the cores first while documents are being added.
func TestPassagesEmbedInTheBackground(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the nice value of a thread is read on Linux only")
	}
	normal, err := lowprio.Current()
	if err != nil {
		t.Fatal(err)
	}
	if normal >= lowprio.Background {
		t.Skipf("the test process already runs at nice %d (at or below the background priority %d)", normal, lowprio.Background)
	}
	r, emb := emptyRetriever(t, Options{EmbedWorkers: 2})
	prios := func() []int {
		emb.mu.Lock()
		defer emb.mu.Unlock()
		p := emb.prios
		emb.prios = nil
		return p
	}
	var many []corpus.Chunk
	for i := range 3*embedGroup + 5 {
		many = append(many, corpus.Chunk{ID: fmt.Sprintf("c%d", i), DocID: "d", Lang: "en", Text: fmt.Sprintf("passage number %d about savanna grass", i)})
	}
	for _, chunks := range [][]corpus.Chunk{testChunks, many} {
		if err := r.Add(context.Background(), chunks, nil); err != nil {
			t.Fatal(err)
		}
		got := prios()
		if len(got) == 0 {
			t.Fatal("the embedder was not called")
		}
		for _, p := range got {
			if p != lowprio.Background {
				t.Fatalf("%d passages embedded at priorities %v, want all %d", len(chunks), got, lowprio.Background)
			}
		}
	}
	if _, err := r.Search(context.Background(), "savanna grass", SearchOptions{Mode: ModeHybrid, K: 3}); err != nil {
		t.Fatal(err)
	}
	if got := prios(); len(got) != 1 || got[0] != normal {
		t.Fatalf("the question was embedded at priorities %v, want [%d]", got, normal)
	}
}
