package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"vika/backend/chunk"
	"vika/backend/corpus"
	"vika/backend/index"
	"vika/backend/ingest"
	"vika/backend/ocr"
	"vika/backend/testpdf"
)

// fixedRetriever answers each question with the hits listed for it and
// records the k it was asked for.
func fixedRetriever(hits map[string][]PageHit, asked *[]int) PageRetriever {
	return func(_ context.Context, _, question string, k int) ([]PageHit, error) {
		if asked != nil {
			*asked = append(*asked, k)
		}
		return hits[question], nil
	}
}

func h(file string, page int) PageHit { return PageHit{File: file, Page: page} }

func TestPagesScoring(t *testing.T) {
	qs := []PageQuestion{
		{ID: "first", File: "a.pdf", Question: "q1", Pages: []int{3}, Kind: "text"},
		{ID: "third", File: "a.pdf", Question: "q2", Pages: []int{7, 9}, Kind: "text"},
		{ID: "sixth", File: "a.pdf", Question: "q3", Pages: []int{2}, Kind: "table"},
		{ID: "other-file", File: "b.pdf", Question: "q4", Pages: []int{4}, Kind: "table"},
		{ID: "beyond-10", File: "b.pdf", Question: "q5", Pages: []int{1}, Kind: "table"},
		{ID: "empty", File: "b.pdf", Question: "q6", Pages: []int{1}, Kind: "table"},
	}
	hits := map[string][]PageHit{
		"q1": {h("a.pdf", 3), h("a.pdf", 3), h("a.pdf", 1)},
		// Two hits on page 5 take two ranks; page 9 is the second answer page.
		"q2": {h("a.pdf", 5), h("a.pdf", 5), h("a.pdf", 9), h("a.pdf", 7)},
		"q3": {h("a.pdf", 1), h("a.pdf", 1), h("a.pdf", 1), h("a.pdf", 1), h("a.pdf", 1), h("a.pdf", 2)},
		// The right page number in the wrong file is a miss.
		"q4": {h("a.pdf", 4), h("b.pdf", 4)},
		"q5": {h("b.pdf", 2), h("b.pdf", 2), h("b.pdf", 2), h("b.pdf", 2), h("b.pdf", 2),
			h("b.pdf", 2), h("b.pdf", 2), h("b.pdf", 2), h("b.pdf", 2), h("b.pdf", 2), h("b.pdf", 1)},
	}
	var asked []int
	rep, err := Pages(context.Background(), qs, fixedRetriever(hits, &asked))
	if err != nil {
		t.Fatal(err)
	}
	ranks := map[string]int{}
	for _, r := range rep.Results {
		ranks[r.ID] = r.Rank
		if r.Hit != (r.Rank >= 1 && r.Rank <= 5) {
			t.Errorf("%s: Hit = %v with rank %d", r.ID, r.Hit, r.Rank)
		}
		if len(r.Top) > PageHitCutoff {
			t.Errorf("%s: %d hits kept, want at most %d", r.ID, len(r.Top), PageHitCutoff)
		}
	}
	wantRanks := map[string]int{"first": 1, "third": 3, "sixth": 6, "other-file": 2, "beyond-10": 0, "empty": 0}
	if diff := cmp.Diff(wantRanks, ranks); diff != "" {
		t.Errorf("ranks (-want +got):\n%s", diff)
	}
	// a.pdf: hits 2 of 3, MRR (1 + 1/3 + 1/6) / 3 = 0.5.
	// b.pdf: hits 1 of 3, MRR (1/2) / 3.
	// Distinct pages: q1 ranks 1st, q2..q5 2nd, q6 nowhere; q5's answer
	// page comes at hit 11, past the 8 sources.
	pageRanks := map[string]int{"first": 1, "third": 2, "sixth": 2, "other-file": 2, "beyond-10": 2, "empty": 0}
	for _, r := range rep.Results {
		if r.PageRank != pageRanks[r.ID] {
			t.Errorf("%s: PageRank %d, want %d", r.ID, r.PageRank, pageRanks[r.ID])
		}
	}
	want := PageReport{
		Overall: PageScore{Questions: 6, Hits: 3, HitAt5: 0.5, MRR: (1 + 1.0/3 + 1.0/6 + 0.5) / 6,
			PageHit1: 1.0 / 6, PageHit5: 5.0 / 6, PageHit8: 5.0 / 6, PageMRR: 0.5, Sources8: 4.0 / 6, Found: 5},
		ByFile: []FileScore{
			{File: "a.pdf", PageScore: PageScore{Questions: 3, Hits: 2, HitAt5: 2.0 / 3, MRR: 0.5,
				PageHit1: 1.0 / 3, PageHit5: 1, PageHit8: 1, PageMRR: 2.0 / 3, Sources8: 1, Found: 3}},
			{File: "b.pdf", PageScore: PageScore{Questions: 3, Hits: 1, HitAt5: 1.0 / 3, MRR: 0.5 / 3,
				PageHit5: 2.0 / 3, PageHit8: 2.0 / 3, PageMRR: 1.0 / 3, Sources8: 1.0 / 3, Found: 2}},
		},
		ByKind: []KindScore{
			{Kind: "table", PageScore: PageScore{Questions: 4, Hits: 1, HitAt5: 0.25, MRR: (1.0/6 + 0.5) / 4,
				PageHit5: 0.75, PageHit8: 0.75, PageMRR: 0.375, Sources8: 0.5, Found: 3}},
			{Kind: "text", PageScore: PageScore{Questions: 2, Hits: 2, HitAt5: 1, MRR: (1 + 1.0/3) / 2,
				PageHit1: 0.5, PageHit5: 1, PageHit8: 1, PageMRR: 0.75, Sources8: 1, Found: 2}},
		},
	}
	approx := cmp.Comparer(func(x, y float64) bool { return near(x, y) })
	if diff := cmp.Diff(want.Overall, rep.Overall, approx); diff != "" {
		t.Errorf("overall (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want.ByFile, rep.ByFile, approx); diff != "" {
		t.Errorf("by file (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want.ByKind, rep.ByKind, approx); diff != "" {
		t.Errorf("by kind (-want +got):\n%s", diff)
	}
	if !slices.Equal(asked, []int{PageDepth, PageDepth, PageDepth, PageDepth, PageDepth, PageDepth}) {
		t.Errorf("retriever asked for k = %v, want %d each time", asked, PageDepth)
	}
	var failed []string
	for _, r := range rep.Failures() {
		failed = append(failed, r.ID)
	}
	if want := []string{"sixth", "beyond-10", "empty"}; !slices.Equal(failed, want) {
		t.Errorf("Failures = %v, want %v", failed, want)
	}
	if got := rep.Results[0].Top; !slices.Equal(got, hits["q1"]) {
		t.Errorf("Top = %v, want %v", got, hits["q1"])
	}
}

func TestPagesNoQuestion(t *testing.T) {
	rep, err := Pages(context.Background(), nil, fixedRetriever(nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(PageReport{}, rep); diff != "" {
		t.Errorf("empty question set (-want +got):\n%s", diff)
	}
}

func TestPagesErrors(t *testing.T) {
	qs := []PageQuestion{{ID: "q1", File: "a.pdf", Question: "x", Pages: []int{1}}}
	boom := errors.New("index closed")
	_, err := Pages(context.Background(), qs, func(context.Context, string, string, int) ([]PageHit, error) {
		return nil, boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "q1") {
		t.Errorf("retriever error: got %v, want it wrapped with the question id", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := 0
	_, err = Pages(ctx, qs, func(context.Context, string, string, int) ([]PageHit, error) {
		calls++
		return nil, nil
	})
	if !errors.Is(err, context.Canceled) || calls != 0 {
		t.Errorf("cancelled: err %v after %d calls, want context.Canceled before any", err, calls)
	}
}

func TestReadPageQuestions(t *testing.T) {
	good := `{"id":"a","file":"x.pdf","question":"Why?","pages":[2,3],"note":"p2","kind":"table","split":"tune"}

{"id":"b","file":"y.pdf","question":"Pourquoi ?","pages":[1],"kind":"slide","split":"test"}
`
	qs, err := ReadPageQuestions(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	want := []PageQuestion{
		{ID: "a", File: "x.pdf", Question: "Why?", Pages: []int{2, 3}, Note: "p2", Kind: "table", Split: SplitTune},
		{ID: "b", File: "y.pdf", Question: "Pourquoi ?", Pages: []int{1}, Kind: "slide", Split: SplitTest},
	}
	if diff := cmp.Diff(want, qs); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for name, in := range map[string]string{
		"not json":      `{"id":"a",`,
		"unknown field": `{"id":"a","file":"x.pdf","question":"q","page":[1],"kind":"text","split":"tune"}`,
		"no id":         `{"file":"x.pdf","question":"q","pages":[1],"kind":"text","split":"tune"}`,
		"no file":       `{"id":"a","question":"q","pages":[1],"kind":"text","split":"tune"}`,
		"no question":   `{"id":"a","file":"x.pdf","question":" ","pages":[1],"kind":"text","split":"tune"}`,
		"no page":       `{"id":"a","file":"x.pdf","question":"q","pages":[],"kind":"text","split":"tune"}`,
		"page zero":     `{"id":"a","file":"x.pdf","question":"q","pages":[0],"kind":"text","split":"tune"}`,
		"no kind":       `{"id":"a","file":"x.pdf","question":"q","pages":[1],"split":"tune"}`,
		"unknown kind":  `{"id":"a","file":"x.pdf","question":"q","pages":[1],"kind":"chart","split":"tune"}`,
		"no split":      `{"id":"a","file":"x.pdf","question":"q","pages":[1],"kind":"text"}`,
		"unknown split": `{"id":"a","file":"x.pdf","question":"q","pages":[1],"kind":"text","split":"train"}`,
		"duplicate id":  `{"id":"a","file":"x.pdf","question":"q","pages":[1],"kind":"text","split":"tune"}` + "\n" + `{"id":"a","file":"y.pdf","question":"r","pages":[2],"kind":"text","split":"test"}`,
		"empty":         "\n\n",
	} {
		if _, err := ReadPageQuestions(strings.NewReader(in)); !errors.Is(err, ErrBadQuestions) {
			t.Errorf("%s: err = %v, want ErrBadQuestions", name, err)
		}
	}
}

// questionSet is the page-level question set over ../shared/data/pdfs.
const questionSet = "../../testdata/pdf_questions.jsonl"

// sharedFiles are the PDFs of ../shared/data/pdfs (data/README.md).
var sharedFiles = []string{
	"devlin2019_bert.pdf",
	"flajolet_martin1985_probabilistic_counting_SCANNED.pdf",
	"he2015_resnet.pdf",
	"jegou_statistique_inferentielle_slides_fr.pdf",
	"okasaki1996_purely_functional_data_structures_thesis.pdf",
	"rouviere2019_intro_statistical_learning_slides.pdf",
	"schutz2017_these_microbiote_mucoviscidose_fr.pdf",
	"schutz2017_these_p20-22_SCANNED_MADE_fr.pdf",
	"shannon1948_mathematical_theory_of_communication.pdf",
	"vaswani2017_attention_is_all_you_need.pdf",
}

// longFiles are the long documents of the question set (issue 16): at
// least 80 questions are about them.
var longFiles = []string{
	"jegou_statistique_inferentielle_slides_fr.pdf",
	"okasaki1996_purely_functional_data_structures_thesis.pdf",
	"rouviere2019_intro_statistical_learning_slides.pdf",
	"schutz2017_these_microbiote_mucoviscidose_fr.pdf",
	"shannon1948_mathematical_theory_of_communication.pdf",
}

// TestQuestionSet checks the shape of the question set; it needs no PDF.
func TestQuestionSet(t *testing.T) {
	qs, err := LoadPageQuestions(questionSet)
	if err != nil {
		t.Fatal(err)
	}
	perFile := map[string]int{}
	perSplit := map[string]map[string]int{SplitTune: {}, SplitTest: {}}
	long := 0
	for _, q := range qs {
		if !slices.Contains(sharedFiles, q.File) {
			t.Errorf("%s: unknown file %q", q.ID, q.File)
		}
		if q.Note == "" {
			t.Errorf("%s: no note saying where the answer is", q.ID)
		}
		perFile[q.File]++
		perSplit[q.Split][q.File]++
		if slices.Contains(longFiles, q.File) {
			long++
		}
	}
	if len(qs) < 150 || long < 80 {
		t.Errorf("%d questions, %d on the long documents; want at least 150 and 80", len(qs), long)
	}
	for _, f := range sharedFiles {
		if perFile[f] < 4 {
			t.Errorf("%s: %d questions, want at least 4", f, perFile[f])
		}
		// Alternating within each file keeps both halves alike.
		if d := perSplit[SplitTune][f] - perSplit[SplitTest][f]; d < 0 || d > 1 {
			t.Errorf("%s: %d tune and %d test questions, want the halves to alternate", f, perSplit[SplitTune][f], perSplit[SplitTest][f])
		}
	}
	for _, split := range []string{SplitTune, SplitTest} {
		sel, err := SelectSplit(qs, split)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range sel {
			if q.Split != split {
				t.Fatalf("SelectSplit(%s) returned %s of %s", split, q.ID, q.Split)
			}
		}
		if n := len(sel); n != sum(perSplit[split]) {
			t.Errorf("SelectSplit(%s): %d questions", split, n)
		}
	}
	if all, _ := SelectSplit(qs, "all"); len(all) != len(qs) {
		t.Errorf("SelectSplit(all) = %d questions, want %d", len(all), len(qs))
	}
	if _, err := SelectSplit(qs, "train"); err == nil {
		t.Error("SelectSplit(train): no error")
	}
	if _, err := firstSet(); err != nil {
		t.Error(err)
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// sharedDoc is one PDF of the shared data, ingested once (with OCR) for
// every test of the package that needs it.
type sharedDoc struct {
	res     ingest.Result
	elapsed time.Duration
}

var shared struct {
	once sync.Once
	docs []sharedDoc
	err  error
}

// sharedDocs ingests the ten shared PDFs with OCR, once per test binary.
// It skips under -short and when ../shared/data/pdfs (next to the
// repository root) is absent, or Tesseract's language data is missing.
func sharedDocs(t *testing.T) []sharedDoc {
	t.Helper()
	if testing.Short() {
		t.Skip("page-level evaluation over ../shared/data/pdfs: not with -short (it OCRs 61 pages, about a minute)")
	}
	paths := make([]string, len(sharedFiles))
	for i, f := range sharedFiles {
		paths[i] = testpdf.SharedPDF(t, f) // skips when ../shared/data is absent
	}
	shared.once.Do(func() {
		pool, err := ocr.NewPool(ocr.Config{})
		if err != nil {
			shared.err = fmt.Errorf("%w (the scanned PDFs need Tesseract with fra+eng)", err)
			return
		}
		defer pool.Close()
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				shared.err = err
				return
			}
			start := time.Now()
			res, err := ingest.Run(context.Background(), filepath.Base(p), data, ingest.Options{OCR: pool}, nil)
			if err != nil {
				shared.err = fmt.Errorf("%s: %w", filepath.Base(p), err)
				return
			}
			shared.docs = append(shared.docs, sharedDoc{res: res, elapsed: time.Since(start)})
		}
	})
	if errors.Is(shared.err, ocr.ErrNoLanguageData) {
		t.Skipf("skipping: %v", shared.err)
	}
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.docs
}

// rechunk splits the stored pages of d with opts, as ingest.Run does
// (chunks take their page's language).
func rechunk(d sharedDoc, opts chunk.Options) []corpus.Chunk {
	chunks := chunk.Split(d.res.Doc, d.res.Pages, opts)
	lang := make(map[int]string, len(d.res.Pages))
	for _, p := range d.res.Pages {
		lang[p.Number] = p.Lang
	}
	for i := range chunks {
		chunks[i].Lang = lang[chunks[i].Page]
	}
	return chunks
}

// Retrieval scopes of the BM25 evaluation.
const (
	scopeFile   = "file"   // the question's PDF alone
	scopeCorpus = "corpus" // all ten PDFs in one index
)

// bm25Pages holds BM25 indexes of the chunks of the shared PDFs.
type bm25Pages struct {
	corpus *index.Lexical
	byFile map[string]*index.Lexical
	cite   map[string]PageHit // chunk id -> file and page it cites
	chunks int
	all    []*index.Lexical
}

func (b *bm25Pages) close() {
	for _, l := range b.all {
		l.Close()
	}
}

func newBM25Pages(t *testing.T, docs []sharedDoc, opts chunk.Options) *bm25Pages {
	t.Helper()
	ctx := context.Background()
	b := &bm25Pages{byFile: map[string]*index.Lexical{}, cite: map[string]PageHit{}}
	newIndex := func() *index.Lexical {
		l, err := index.NewLexical()
		if err != nil {
			t.Fatal(err)
		}
		b.all = append(b.all, l)
		return l
	}
	b.corpus = newIndex()
	for _, d := range docs {
		chunks := rechunk(d, opts)
		b.chunks += len(chunks)
		for _, c := range chunks {
			b.cite[c.ID] = PageHit{File: d.res.Doc.File, Page: c.Page}
		}
		l := newIndex()
		for _, idx := range []*index.Lexical{l, b.corpus} {
			if err := idx.Add(ctx, chunks); err != nil {
				t.Fatal(err)
			}
		}
		b.byFile[d.res.Doc.File] = l
	}
	return b
}

// retriever searches the question's file alone or the whole corpus.
func (b *bm25Pages) retriever(scope string) PageRetriever {
	return func(ctx context.Context, file, question string, k int) ([]PageHit, error) {
		l := b.corpus
		if scope == scopeFile {
			if l = b.byFile[file]; l == nil {
				return nil, fmt.Errorf("no index for %s", file)
			}
		}
		scored, err := l.Search(ctx, question, k)
		if err != nil {
			return nil, err
		}
		hits := make([]PageHit, len(scored))
		for i, s := range scored {
			hits[i] = b.cite[s.ChunkID]
		}
		return hits, nil
	}
}

// firstSet returns the 74 questions of the first set (docs/eval/CHUNKING.md), not
// the 82 added for long documents (docs/eval/PAGES.md), which number from 08
// (Okasaki) or 09 (the other long documents) on.
func firstSet() ([]PageQuestion, error) {
	qs, err := LoadPageQuestions(questionSet)
	if err != nil {
		return nil, err
	}
	var out []PageQuestion
	for _, q := range qs {
		i := strings.LastIndex(q.ID, "-")
		n, err := strconv.Atoi(q.ID[i+1:])
		switch {
		case err != nil:
			out = append(out, q)
		case q.ID[:i] == "okasaki" && n <= 7,
			slices.Contains([]string{"shannon", "jegou", "rouviere", "schutz"}, q.ID[:i]) && n <= 8,
			!slices.Contains([]string{"okasaki", "shannon", "jegou", "rouviere", "schutz"}, q.ID[:i]):
			out = append(out, q)
		}
	}
	if len(out) != 74 {
		return nil, fmt.Errorf("first set: %d questions, want 74", len(out))
	}
	return out, nil
}

// Page hit@5 with BM25 over chunks made with the default chunk.Options
// (900 runes, overlap 150), measured on the 74 questions of the first set
// (docs/eval/CHUNKING.md).
// The test fails below these minus pagesMargin, about two questions.
const (
	measuredFileHitAt5   = 70.0 / 74 // 0.946
	measuredCorpusHitAt5 = 69.0 / 74 // 0.932
	pagesMargin          = 0.03
)

// TestPagesBM25 evaluates BM25 at the page level on the shared PDFs with
// the default chunk options, so that a regression of extraction, OCR,
// chunking or BM25 shows. It needs ../shared/data and takes about a minute
// (OCR of the scanned pages); skipped with -short.
func TestPagesBM25(t *testing.T) {
	docs := sharedDocs(t)
	qs, err := firstSet()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		t.Logf("ingested %s in %v: %d pages, %d OCR, %d chunks", d.res.Doc.File, d.elapsed.Round(time.Millisecond), len(d.res.Pages), d.res.Doc.OCRPages, len(d.res.Chunks))
		// Re-chunking the stored pages must give what ingest gave, or the
		// chunk-size sweep would not measure the pipeline.
		if diff := cmp.Diff(d.res.Chunks, rechunk(d, chunk.Options{})); diff != "" {
			t.Fatalf("%s: re-chunking differs from ingest.Run (-ingest +rechunk):\n%s", d.res.Doc.File, diff)
		}
		for _, q := range qs {
			if q.File != d.res.Doc.File {
				continue
			}
			for _, p := range q.Pages {
				if p > len(d.res.Pages) {
					t.Errorf("%s: page %d beyond the %d pages of %s", q.ID, p, len(d.res.Pages), q.File)
				}
			}
		}
	}
	b := newBM25Pages(t, docs, chunk.Options{})
	defer b.close()
	for _, tc := range []struct {
		scope string
		min   float64
	}{
		{scopeFile, measuredFileHitAt5 - pagesMargin},
		{scopeCorpus, measuredCorpusHitAt5 - pagesMargin},
	} {
		rep, err := Pages(context.Background(), qs, b.retriever(tc.scope))
		if err != nil {
			t.Fatal(err)
		}
		logReport(t, tc.scope, rep, qs)
		if rep.Overall.HitAt5 < tc.min {
			t.Errorf("%s scope: page hit@5 = %.3f, want >= %.3f (measured minus %.2f)", tc.scope, rep.Overall.HitAt5, tc.min, pagesMargin)
		}
	}
}

func logReport(t *testing.T, scope string, rep PageReport, qs []PageQuestion) {
	t.Helper()
	t.Logf("BM25, %s scope: page hit@5 %.3f (%d/%d), MRR@10 %.3f", scope, rep.Overall.HitAt5, rep.Overall.Hits, rep.Overall.Questions, rep.Overall.MRR)
	for _, f := range rep.ByFile {
		t.Logf("  %-58s hit@5 %.2f (%d/%d) MRR %.2f", f.File, f.HitAt5, f.Hits, f.Questions, f.MRR)
	}
	text := map[string]PageQuestion{}
	for _, q := range qs {
		text[q.ID] = q
	}
	for _, r := range rep.Failures() {
		q := text[r.ID]
		t.Logf("  miss %s (rank %d, answer %v, got %v): %s", r.ID, r.Rank, q.Pages, pagesOf(r.Top), q.Question)
	}
}

func pagesOf(hits []PageHit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = fmt.Sprintf("%s p%d", strings.TrimSuffix(h.File, ".pdf"), h.Page)
	}
	return out
}

func TestPackCount(t *testing.T) {
	for _, c := range []struct {
		runes         []int
		least, budget int
		want          int
	}{
		{[]int{900, 900, 900}, 0, 1800, 2},      // the third would pass the budget
		{[]int{900, 900, 900}, 3, 1000, 3},      // the minimum holds whatever their length
		{[]int{100, 100, 100, 100}, 1, 350, 3},  // short passages: more of them
		{[]int{100, 2000, 100}, 0, 1000, 1},     // a long one stops the packing
		{nil, 8, 7200, 0},                       // no hit
		{[]int{500, 500}, 8, 7200, 2},           // fewer than the minimum
		{[]int{7300, 10}, 0, 7200, 0},           // the first alone is over the budget
		{[]int{300, 300, 300, 300}, 2, 1200, 4}, // exactly the budget fits
	} {
		if got := PackCount(c.runes, c.least, c.budget); got != c.want {
			t.Errorf("PackCount(%v, %d, %d) = %d, want %d", c.runes, c.least, c.budget, got, c.want)
		}
	}
}

func TestSourceRankAndLengths(t *testing.T) {
	q := PageQuestion{ID: "q", File: "a.pdf", Question: "q", Pages: []int{4}, Kind: "text", Split: SplitTest}
	var hits []PageHit
	for p := 1; p <= 12; p++ {
		hits = append(hits, PageHit{File: "a.pdf", Page: p%12 + 10, Runes: 100 * p})
	}
	hits[10].Page = 4 // the answer is the 11th passage
	res := scoreQuestion(q, hits)
	if res.SourceRank != 11 || res.Sources || res.PageRank != 11 {
		t.Errorf("SourceRank %d, Sources %v, PageRank %d; want 11, false, 11", res.SourceRank, res.Sources, res.PageRank)
	}
	if want := 100 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8); res.Runes8 != want {
		t.Errorf("Runes8 %d, want %d", res.Runes8, want)
	}
	if want := PackCount(res.HitRunes, SourcesCutoff, SourceBudget); res.Packed != want || want != 11 {
		t.Errorf("Packed %d, want %d (11: 6600 runes, the 12th passes 7200)", res.Packed, want)
	}
	if len(res.HitRunes) != 12 || res.HitRunes[11] != 1200 {
		t.Errorf("HitRunes %v", res.HitRunes)
	}
}

// TestPagesByRegion: an answer page stands by its region when its first
// hit is a region passage; the share is over the questions whose answer
// page was found.
func TestPagesByRegion(t *testing.T) {
	qs := []PageQuestion{
		{ID: "table-first", File: "a.pdf", Pages: []int{2}, Kind: "table", Split: "test"},
		{ID: "body-first", File: "a.pdf", Pages: []int{3}, Kind: "table", Split: "test"},
		{ID: "missed", File: "a.pdf", Pages: []int{9}, Kind: "table", Split: "test"},
	}
	hits := map[string][]PageHit{
		"table-first": {{File: "a.pdf", Page: 1}, {File: "a.pdf", Page: 2, Region: true}, {File: "a.pdf", Page: 2}},
		"body-first":  {{File: "a.pdf", Page: 3}, {File: "a.pdf", Page: 3, Region: true}},
		"missed":      {{File: "a.pdf", Page: 1, Region: true}},
	}
	i := 0
	rep, err := Pages(t.Context(), qs, func(_ context.Context, _, _ string, _ int) ([]PageHit, error) {
		h := hits[qs[i].ID]
		i++
		return h, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Overall.Found != 2 || !near(rep.Overall.ByRegion, 0.5) {
		t.Errorf("found %d, by region %.3f; want 2 and 0.5", rep.Overall.Found, rep.Overall.ByRegion)
	}
	if !rep.Results[0].ByRegion || rep.Results[1].ByRegion || rep.Results[2].ByRegion {
		t.Errorf("results %+v", rep.Results)
	}
}
