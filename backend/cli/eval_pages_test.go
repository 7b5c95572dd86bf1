package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"vika/backend/assets/assetstest"
	"vika/backend/eval"
	"vika/backend/sharedtest"
	"vika/backend/testpdf"
)

// TestEvalPagesBM25 runs `vika eval pages` in BM25 mode over a generated
// two-page PDF: the report scores the whole-page baseline and BM25 with and
// without the page ranking, and a second run reads the cache instead of
// ingesting again.
func TestEvalPagesBM25(t *testing.T) {
	dir := t.TempDir()
	pdf := testpdf.Text(
		"Zebras graze on the savanna grass every morning. "+testpdf.Words("filler", 60),
		"Quarks are bound by gluons in quantum chromodynamics. "+testpdf.Words("other", 60))
	if err := os.WriteFile(filepath.Join(dir, "z.pdf"), pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	qs := `{"id":"z1","file":"z.pdf","question":"what do zebras eat","pages":[1],"note":"p1","kind":"text","split":"tune"}
{"id":"z2","file":"z.pdf","question":"which particles hold quarks together","pages":[2],"note":"p2","kind":"text","split":"test"}
`
	qpath := filepath.Join(dir, "q.jsonl")
	if err := os.WriteFile(qpath, []byte(qs), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, "cache")
	args := []string{"eval", "pages", dir, "--questions", qpath, "--mode", "bm25", "--json", "--cache", cache}
	for run := 0; run < 2; run++ {
		var out, errOut bytes.Buffer
		if code := Run(context.Background(), args, &out, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		if ingested := strings.Contains(errOut.String(), "ingesting z.pdf"); ingested != (run == 0) {
			t.Errorf("run %d: ingested %v (%s), want only on the first run", run, ingested, errOut.String())
		}
		var rep pagesReport
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		if len(rep.Rows) != 4 || rep.Rows[0].Search != "whole-page BM25" || rep.Rows[1].Search != "whole-page BM25, textbook" || rep.Rows[2].Pages != "off" || rep.Rows[3].Pages == "off" {
			t.Fatalf("rows = %+v", rep.Rows)
		}
		for _, r := range rep.Rows {
			if r.Score.Questions != 2 || r.Score.PageHit1 != 1 || r.Score.Sources8 != 1 {
				t.Errorf("%s, %s: %+v, want both answer pages first", r.Search, r.Pages, r.Score)
			}
		}
	}
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), append(args, "--split", "test"), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rep pagesReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Count != 1 {
		t.Errorf("--split test: %d questions (%v), want 1", rep.Count, err)
	}
	for _, bad := range [][]string{
		{"eval", "pages"},
		{"eval", "pages", dir, "--questions", qpath, "--mode", "fuzzy"},
		{"eval", "pages", dir, "--questions", qpath, "--split", "train"},
	} {
		if code := Run(context.Background(), bad, &out, &errOut); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}

// Measured on the test half of testdata/pdf_questions.jsonl
// (75 questions) in the default mode with the page ranking
// (docs/eval/PAGES.md), again after the ranking was made deterministic
// (same counts), and again with the passages of tables, figures and
// formulas (formula passages not searched; with them searched it was 50,
// 68, 71): hit@1, hit@5, hit@8 51, 69 and 71 of 75, and sources@8
// (an answer page among the pages of the 8 passages of a prompt) 71 of
// 75; the test fails below them minus pagesMargin, about two questions
// (room for the passages other changes to chunking add, not for noise:
// the same index gives the same ranking on every run).
const (
	measuredTestHit1    = 51.0 / 75 // 0.680
	measuredTestHit5    = 69.0 / 75 // 0.920
	measuredTestHit8    = 71.0 / 75 // 0.947
	measuredTestSources = 71.0 / 75 // 0.947
	// The 74 questions of the first set, page hit@5 over passages as
	// before (README): 69/74 in the default mode without the page
	// ranking, 70/74 with it.
	measuredFirst74 = 70
	pagesMargin     = 0.03
)

// TestEvalPagesDefaultMode scores the default mode (hybrid with USE-lite
// for English PDFs, BM25 for French ones) on the shared PDFs and checks
// the page-level bars: hit@1, hit@5 and hit@8 over distinct pages on the
// test half, and the first 74 questions. It ingests ten PDFs (with OCR)
// and embeds their chunks: minutes, so not with -short.
// VIKA_EVAL_PAGES_CACHE names a directory to keep both between runs.
func TestEvalPagesDefaultMode(t *testing.T) {
	if testing.Short() {
		t.Skip("page evaluation over ../shared/data/pdfs: minutes of OCR and embedding; not with -short")
	}
	assetstest.RequireAll(t)
	dir := filepath.Dir(testpdf.SharedPDF(t, "okasaki1996_purely_functional_data_structures_thesis.pdf"))
	qpath := filepath.Join("..", "..", "testdata", "pdf_questions.jsonl")
	rep := evalPagesDefault(t, dir, qpath, "VIKA_EVAL_PAGES_CACHE")
	all, err := eval.LoadPageQuestions(qpath)
	if err != nil {
		t.Fatal(err)
	}
	split := map[string]string{}
	for _, q := range all {
		split[q.ID] = q.Split
	}
	var row *pagesRow
	for i, r := range rep.Rows {
		if r.Search == "default" && r.Pages != "off" {
			row = &rep.Rows[i]
		}
	}
	if row == nil {
		t.Fatalf("no default row with the page ranking: %+v", rep.Rows)
	}
	var n, hit1, hit5, hit8, sources, first74 int
	for _, r := range row.Results {
		if first74Question(r.ID) && r.Hit {
			first74++
		}
		if split[r.ID] != eval.SplitTest {
			continue
		}
		n++
		if r.Sources {
			sources++
		}
		for _, c := range []struct {
			v   *int
			cut int
		}{{&hit1, 1}, {&hit5, 5}, {&hit8, 8}} {
			if r.PageRank >= 1 && r.PageRank <= c.cut {
				*c.v++
			}
		}
	}
	t.Logf("test half (%d): hit@1 %d, hit@5 %d, hit@8 %d, sources@8 %d; first 74 questions: passage hit@5 %d", n, hit1, hit5, hit8, sources, first74)
	for _, c := range []struct {
		name     string
		got      int
		measured float64
	}{{"hit@1", hit1, measuredTestHit1}, {"hit@5", hit5, measuredTestHit5}, {"hit@8", hit8, measuredTestHit8},
		{"sources@8", sources, measuredTestSources}} {
		if share := float64(c.got) / float64(n); share < c.measured-pagesMargin {
			t.Errorf("test half %s = %.3f, want >= %.3f (measured %.3f)", c.name, share, c.measured-pagesMargin, c.measured)
		}
	}
	if first74 < measuredFirst74-2 {
		t.Errorf("first 74 questions: passage hit@5 %d, want >= %d (measured %d)", first74, measuredFirst74-2, measuredFirst74)
	}
}

// first74Question tells the questions of the first set (74) from the 82
// added for long documents (issue 16), which number from 08 (Okasaki) or
// 09 (the other long documents) on.
func first74Question(id string) bool {
	i := strings.LastIndex(id, "-")
	n, err := strconv.Atoi(id[i+1:])
	if err != nil {
		return false
	}
	switch id[:i] {
	case "okasaki":
		return n <= 7
	case "shannon", "jegou", "rouviere", "schutz":
		return n <= 8
	}
	return true
}

// MMLongBench-Doc's development half (docs/eval/PAGES.md, twelfth
// round), hit@1, hit@5 and hit@8 over distinct pages in the default mode:
// text questions 12, 18 and 19 of 19, visual ones 17, 24 and 26 of 28.
// With 19 and 28 questions one question is 5% and 4%: the test fails one
// question below each.
var measuredDev = map[string][3]int{"text": {12, 18, 19}, "figure": {17, 24, 26}}

// TestEvalPagesMMLongBenchDev runs `vika eval pages` on the development
// half as published and checks, per kind, the default mode's bars and
// that it is at least whole-page BM25 (bleve's and the textbook one) at
// every depth. It ingests eight papers (OCR on some pages): not with
// -short. VIKA_EVAL_DEV_CACHE names a directory to keep them between runs.
func TestEvalPagesMMLongBenchDev(t *testing.T) {
	if testing.Short() {
		t.Skip("page evaluation over ../shared/data/mmlongbench_dev: a minute of ingest; not with -short")
	}
	assetstest.RequireAll(t)
	qpath := sharedtest.Require(t, "mmlongbench_dev/questions.jsonl")
	rep := evalPagesDefault(t, filepath.Join(filepath.Dir(qpath), "documents"), qpath, "VIKA_EVAL_DEV_CACHE")
	// the first row of search (the default mode's with the page ranking)
	byKind := func(search string) map[string]eval.KindScore {
		for _, r := range rep.Rows {
			if r.Search == search && r.Pages != "off" {
				m := map[string]eval.KindScore{}
				for _, k := range r.ByKind {
					m[k.Kind] = k
				}
				return m
			}
		}
		t.Fatalf("no row %q in %d rows", search, len(rep.Rows))
		return nil
	}
	def := byKind("default")
	baselines := []map[string]eval.KindScore{byKind("whole-page BM25"), byKind("whole-page BM25, textbook")}
	for kind, want := range measuredDev {
		got := def[kind]
		hits := [3]float64{got.PageHit1, got.PageHit5, got.PageHit8}
		t.Logf("%s (%d): hit@1/5/8 %.2f %.2f %.2f", kind, got.Questions, hits[0], hits[1], hits[2])
		for i, depth := range []int{1, 5, 8} {
			n := int(hits[i]*float64(got.Questions) + 0.5)
			if n < want[i]-1 {
				t.Errorf("%s hit@%d: %d of %d, want >= %d (measured %d)", kind, depth, n, got.Questions, want[i]-1, want[i])
			}
			for j, b := range baselines {
				base := [3]float64{b[kind].PageHit1, b[kind].PageHit5, b[kind].PageHit8}[i]
				if hits[i] < base {
					t.Errorf("%s hit@%d: %.2f, below whole-page BM25 %d's %.2f", kind, depth, hits[i], j, base)
				}
			}
		}
	}
}

// evalPagesDefault runs `vika eval pages` in the default mode over the
// PDFs of dir with the questions of qpath, in the cache named by the
// environment variable cacheVar when it is set, and returns its report.
//
// The English model is USE-lite, whatever the machine has installed: these
// bars guard the retrieval machinery they were measured with (the box's
// models are measured by TestEvalPagesBox).
func evalPagesDefault(t *testing.T, dir, qpath, cacheVar string) pagesReport {
	t.Helper()
	t.Setenv("VIKA_EMBED_MODEL_EN", "use-lite")
	args := []string{"eval", "pages", dir, "--questions", qpath, "--mode", "default", "--json", "--workers", "2"}
	if c := os.Getenv(cacheVar); c != "" {
		args = append(args, "--cache", c)
	}
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rep pagesReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	return rep
}
