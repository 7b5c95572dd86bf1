package index

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/corpus"
)

func newIndex(t *testing.T, chunks ...corpus.Chunk) *Lexical {
	t.Helper()
	l, err := NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	if err := l.Add(context.Background(), chunks); err != nil {
		t.Fatal(err)
	}
	return l
}

func ids(hits []Scored) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.ChunkID)
	}
	return out
}

// TestBM25Score computes bleve's BM25 by hand for a tiny corpus (one query
// term, so no coord factor). TF-IDF (bleve's default, and what NewMemOnly
// silently gives) scores d1 about 0.82 here, and would rank differently.
func TestBM25Score(t *testing.T) {
	l := newIndex(t,
		corpus.Chunk{ID: "d1", DocID: "a", Text: "zebra zebra lion"},
		corpus.Chunk{ID: "d2", DocID: "a", Text: "zebra tiger tiger tiger"},
		corpus.Chunk{ID: "d3", DocID: "b", Text: "lion tiger"},
	)
	got, err := l.Search(context.Background(), "zebra", 10)
	if err != nil {
		t.Fatal(err)
	}
	const n, df = 3.0, 2.0
	idf := math.Log(1 + (n-df+0.5)/(df+0.5))
	avg := math.Ceil(3.0 / n) // bleve: distinct terms (zebra, lion, tiger) / documents
	bm25 := func(freq, length float64) float64 {
		tf := math.Sqrt(freq)
		return idf * tf * K1 / (tf + K1*(1-B+B*length/avg))
	}
	want := []Scored{{"d1", bm25(2, 3)}, {"d2", bm25(1, 4)}}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-6 })); diff != "" {
		t.Errorf("BM25 scores (-hand +bleve):\n%s", diff)
	}
}

// TestBM25Saturation checks a property TF-IDF violates: in two chunks of
// equal length, 16 occurrences of a term score exactly 4x one occurrence
// under TF-IDF (sqrt tf, same norm); BM25 saturates well below that.
func TestBM25Saturation(t *testing.T) {
	filler := strings.Repeat("alpha beta gamma delta ", 4)
	l := newIndex(t,
		corpus.Chunk{ID: "once", DocID: "a", Text: "quasar " + strings.Repeat("omega ", 15) + filler},
		corpus.Chunk{ID: "many", DocID: "a", Text: strings.Repeat("quasar ", 16) + filler},
		corpus.Chunk{ID: "none", DocID: "a", Text: filler},
	)
	got, err := l.Search(context.Background(), "quasar", 10)
	if err != nil || len(got) != 2 || got[0].ChunkID != "many" {
		t.Fatalf("hits = %v, %v", got, err)
	}
	if ratio := got[0].Score / got[1].Score; ratio > 3.5 {
		t.Errorf("score ratio many/once = %.2f; BM25 saturates (TF-IDF: 4)", ratio)
	}
}

func TestSearchRanksAndStems(t *testing.T) {
	l := newIndex(t,
		corpus.Chunk{ID: "c1", DocID: "a", Text: "The zebras were grazing near the river."},
		corpus.Chunk{ID: "c2", DocID: "a", Text: "Lions hunt at night. A zebra is fast."},
		corpus.Chunk{ID: "c3", DocID: "b", Text: "Statistics of sampling distributions."},
	)
	got, err := l.Search(context.Background(), "zebra grazing", 10)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"c1", "c2"}, ids(got)); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if got, _ := l.Search(context.Background(), "zebra", 1); len(got) != 1 {
		t.Errorf("k=1 returned %d hits", len(got))
	}
}

func TestSearchSpecialCharacters(t *testing.T) {
	l := newIndex(t, corpus.Chunk{ID: "c1", DocID: "a", Text: "The zebra: a striped animal (Equus quagga)."})
	queries := []string{
		`"zebra"`, `zebra:animal`, `text:zebra`, `+zebra -lion`, `(zebra)`, `zebra AND NOT lion`,
		`zebra~2`, `zebra^3`, `zeb*`, `z?bra`, `/zeb.*/`, `\zebra\`, `{zebra TO lion]`, `"unclosed`,
		`:`, `::`, `-`, `+`, `"`, `()`, `[]`, `a:b:c`, `doc:a`, `_id:c1`, `élève`, `🦓 zebra`, ``, `   `, `the of and`,
		strings.Repeat("zebra ", 500),
	}
	for _, q := range queries {
		got, err := l.Search(context.Background(), q, 5)
		if err != nil {
			t.Errorf("Search(%q) error: %v", q, err)
			continue
		}
		_ = got
	}
	// Operators are plain text. ("zebra:animal" is one token for the
	// Unicode word breaker, so it finds nothing, without error.)
	for _, q := range []string{`"zebra"`, `+zebra -lion`, `(zebra)`, `zebra AND NOT lion`, `zebra^3`, `🦓 zebra`, `"unclosed zebra`} {
		if got, _ := l.Search(context.Background(), q, 5); len(got) != 1 {
			t.Errorf("Search(%q) = %v, want c1", q, got)
		}
	}
	for _, q := range []string{``, `   `, `the of and`, `:`} {
		if got, _ := l.Search(context.Background(), q, 5); len(got) != 0 {
			t.Errorf("Search(%q) = %v, want no hit", q, got)
		}
	}
}

func TestDeleteDocAndReplace(t *testing.T) {
	var chunks []corpus.Chunk
	for i := 0; i < 600; i++ { // more than one delete batch
		chunks = append(chunks, corpus.Chunk{ID: fmt.Sprintf("a-%d", i), DocID: "docA", Text: "shared words alpha"})
	}
	chunks = append(chunks, corpus.Chunk{ID: "b-1", DocID: "docB", Text: "shared words beta"})
	l := newIndex(t, chunks...)
	ctx := context.Background()
	if err := l.Add(ctx, []corpus.Chunk{{ID: "b-1", DocID: "docB", Text: "replaced gamma"}}); err != nil {
		t.Fatal(err)
	}
	if n, _ := l.Count(); n != 601 {
		t.Fatalf("Count = %d, want 601", n)
	}
	if err := l.DeleteDoc(ctx, "docA"); err != nil {
		t.Fatal(err)
	}
	if n, _ := l.Count(); n != 1 {
		t.Fatalf("Count after delete = %d, want 1", n)
	}
	if got, _ := l.Search(ctx, "shared alpha", 10); len(got) != 0 {
		t.Errorf("deleted chunks still found: %v", ids(got))
	}
	if got, _ := l.Search(ctx, "gamma", 10); !cmp.Equal(ids(got), []string{"b-1"}) {
		t.Errorf("replaced chunk: %v", ids(got))
	}
	if err := l.DeleteDoc(ctx, "unknown"); err != nil {
		t.Errorf("DeleteDoc(unknown) = %v", err)
	}
}

func TestCancelAndClose(t *testing.T) {
	l, err := NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.Add(ctx, []corpus.Chunk{{ID: "x", Text: "x"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("Add(cancelled) = %v", err)
	}
	l.Close()
	if _, err := l.Search(context.Background(), "x", 1); !errors.Is(err, ErrClosed) {
		t.Errorf("Search after Close = %v", err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

func TestConcurrentUse(t *testing.T) {
	l := newIndex(t)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				id := fmt.Sprintf("w%d-%d", w, i)
				if err := l.Add(context.Background(), []corpus.Chunk{{ID: id, DocID: fmt.Sprint(w), Text: "concurrent text " + id}}); err != nil {
					t.Error(err)
				}
				if _, err := l.Search(context.Background(), "concurrent", 5); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if n, _ := l.Count(); n != 80 {
		t.Errorf("Count = %d, want 80", n)
	}
}

// TestFrenchStemming checks that French chunks get the French analyzer:
// inflected forms meet at one stem, articles and stop words are dropped,
// whatever the inflection of the query.
func TestFrenchStemming(t *testing.T) {
	l := newIndex(t,
		corpus.Chunk{ID: "fr1", DocID: "a", Lang: "fr", Text: "La statistique inférentielle étudie l'échantillon."},
		corpus.Chunk{ID: "fr2", DocID: "a", Lang: "fr", Text: "Les tests d'hypothèses sont présentés au chapitre deux."},
		corpus.Chunk{ID: "en1", DocID: "b", Lang: "en", Text: "Statistical learning with kernels."},
		corpus.Chunk{ID: "fr3", DocID: "a", Lang: "fr", Text: "Évolution des abondances relatives au cours du temps."},
	)
	ctx := context.Background()
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"statistiques", []string{"fr1"}},
		{"inférentielles", []string{"fr1"}},
		{"échantillons", []string{"fr1"}}, // elision: l'échantillon
		{"hypothèse", []string{"fr2"}},    // d'hypothèses
		{"l'abondance", []string{"fr3"}},  // elision in the query, plural in the text
		{"l’abondance", []string{"fr3"}},  // typographic apostrophe (U+2019)
		{"evolution", []string{"fr3"}},    // accents folded
		{"les la au", nil},                // French stop words only
		{"kernel", []string{"en1"}},       // English stemming still applies to English chunks
	} {
		got, err := l.Search(ctx, tc.q, 10)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, ids(got)); diff != "" {
			t.Errorf("Search(%q) (-want +got):\n%s", tc.q, diff)
		}
	}
	if diff := cmp.Diff(map[string]int{"en": 1, "fr": 3}, l.Languages()); diff != "" {
		t.Errorf("Languages (-want +got):\n%s", diff)
	}
}

func TestAnalyzer(t *testing.T) {
	for lang, want := range map[string]string{"": "en", "en": "en", "fr": "fr", "de": "de", "nl": "nl", "ru": BasicAnalyzer, "xx": BasicAnalyzer} {
		if got := Analyzer(lang); got != want {
			t.Errorf("Analyzer(%q) = %q, want %q", lang, got, want)
		}
	}
	// A language without a stemmer is still searchable, word for word.
	l := newIndex(t, corpus.Chunk{ID: "ru", DocID: "a", Lang: "ru", Text: "Статистика и вероятность"})
	if got, _ := l.Search(context.Background(), "статистика", 5); !cmp.Equal(ids(got), []string{"ru"}) {
		t.Errorf("basic analyzer: %v", ids(got))
	}
}

// TestLanguageChange re-adds a chunk under another language: it must leave
// the old language's index, and the per-language counts must follow.
func TestLanguageChange(t *testing.T) {
	l := newIndex(t, corpus.Chunk{ID: "c", DocID: "a", Lang: "en", Text: "statistiques descriptives"})
	ctx := context.Background()
	if err := l.Add(ctx, []corpus.Chunk{
		{ID: "c", DocID: "a", Lang: "en", Text: "ignored: an earlier copy in the same batch"},
		{ID: "c", DocID: "a", Lang: "fr", Text: "statistiques descriptives"},
	}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{"fr": 1}, l.Languages()); diff != "" {
		t.Errorf("Languages (-want +got):\n%s", diff)
	}
	got, _ := l.Search(ctx, "statistique", 10)
	if !cmp.Equal(ids(got), []string{"c"}) {
		t.Errorf("hits = %v", got)
	}
	if got, _ := l.Search(ctx, "earlier", 10); len(got) != 0 {
		t.Errorf("stale copy found: %v", got)
	}
	if err := l.DeleteDoc(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if n, _ := l.Count(); n != 0 || len(l.Languages()) != 0 {
		t.Errorf("after delete: Count %d, Languages %v", n, l.Languages())
	}
}

// TestNumbersAndUnits checks how questions with numbers and units meet
// the text: "3.57%" keeps its decimal (it does not match "3 57"),
// hyphenated names split into their parts ("ResNet-152" is resnet + 152,
// "VGG-19" finds "VGG-16/19"), and a long question's scaffolding words
// are stop words.
func TestNumbersAndUnits(t *testing.T) {
	l := newIndex(t,
		corpus.Chunk{ID: "a", DocID: "a", Lang: "en", Text: "An ensemble of ResNets reaches 3.57% top-5 error on the test set."},
		corpus.Chunk{ID: "b", DocID: "a", Lang: "en", Text: "ResNet-152 has lower complexity than VGG-16/19 nets, 11.3 billion FLOPs."},
		corpus.Chunk{ID: "c", DocID: "a", Lang: "en", Text: "The top 5 results and 152 layers, error 3 57 percent."},
	)
	ctx := context.Background()
	for _, tc := range []struct {
		q     string
		first string
		n     int
	}{
		{"3.57%", "a", 1},
		{"ResNet-152", "b", 3},
		{"VGG-19", "b", 1},
		{"11.3 billion", "b", 1},
		{"What is the top-5 error of the ResNet ensemble, in %?", "a", 3},
	} {
		got, err := l.Search(ctx, tc.q, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tc.n || got[0].ChunkID != tc.first {
			t.Errorf("Search(%q) = %v, want %d hits, %s first", tc.q, got, tc.n, tc.first)
		}
	}
}

// TestSearchTiesByID checks that equal scores straddling the k-th place
// are decided by chunk id, the same way on every build of the index:
// bleve alone decides them by the order its parallel analysis returned a
// batch in, so which of 300 identical chunks made a top 5 changed from
// build to build (a slide repeated on many pages of a deck is such a tie),
// and so did the last bits of their scores, summed in an order that
// follows bleve's document numbers.
func TestSearchTiesByID(t *testing.T) {
	var chunks []corpus.Chunk
	for i := range 300 {
		text := "Outline: parametric methods, linear and logistic models, linear discriminant analysis, one explanatory variable, posterior probability"
		if i%100 == 7 { // three chunks above the ties: one more word of the question
			text += " per class"
		}
		chunks = append(chunks, corpus.Chunk{ID: fmt.Sprintf("c%03d", i), DocID: "d", Text: text})
	}
	want := []string{"c007", "c107", "c207", "c000", "c001", "c002", "c003", "c004"}
	for build := range 6 {
		l := newIndex(t, chunks...)
		for _, k := range []int{1, 4, 8} {
			got, err := l.Search(context.Background(), "which quantities of linear discriminant analysis with one explanatory input give the posterior class probabilities", k)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want[:k], ids(got)); diff != "" {
				t.Fatalf("build %d, k %d (-want +got):\n%s", build, k, diff)
			}
		}
	}
}

// TestRoundScores checks the rounding that makes equal scores equal: two
// whole pages of one repeated Rouvière slide scored 0.261609943 each but
// differed in their last bits, in an order that changed from build to
// build. Noise of a few ulps goes; a difference of 1e-8 stays.
func TestRoundScores(t *testing.T) {
	for _, x := range []float64{0.261609943, 1.7603, 12.5, 3e-4} {
		noisy := math.Nextafter(math.Nextafter(x, 1e9), 1e9)
		if round(x) != round(noisy) {
			t.Errorf("%v and %v (two ulps apart) round to %v and %v", x, noisy, round(x), round(noisy))
		}
		if round(x) == round(x*(1+1e-8)) {
			t.Errorf("%v and %v round to the same score", x, x*(1+1e-8))
		}
		if d := math.Abs(round(x)-x) / x; d > 1e-9 {
			t.Errorf("round(%v) = %v, off by %g", x, round(x), d)
		}
	}
}
