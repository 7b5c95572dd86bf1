package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"vika/backend/assets/assetstest"
	"vika/backend/config"
	"vika/backend/sharedtest"
)

// measuredBox holds the app's own search with the box's models (eval
// pages --app, reranked: the app's default), hit@1, hit@5 and hit@8 over
// distinct pages, as counts of questions (docs/measurements.md, "Models
// inside Vika"): the 30 French student questions, and MMLongBench-Doc's
// development half by kind. The test fails one question below each.
var measuredBox = map[string]struct {
	questions string // under ../shared/data
	docs      string
	byKind    map[string][3]int
}{
	"french": {"fr_questions/dev.jsonl", "pdfs", map[string][3]int{"": {12, 27, 29}}},
	"mmlongbench": {"mmlongbench_dev/questions.jsonl", "mmlongbench_dev/documents",
		map[string][3]int{"text": {11, 18, 19}, "figure": {19, 24, 25}}},
}

// TestEvalPagesBox runs `vika eval pages --app` with the models the box
// installs (bge-small-en-v1.5, multilingual-e5-small,
// ms-marco-MiniLM-L-12-v2) on the French student questions and on
// MMLongBench-Doc's development half, and checks the app's reranked row
// against the measured bars. Not with -short: it ingests and embeds ten
// documents. VIKA_EVAL_BOX_CACHE names a directory to keep them.
func TestEvalPagesBox(t *testing.T) {
	if testing.Short() {
		t.Skip("page evaluation with the box's models: minutes of embedding; not with -short")
	}
	for _, name := range []string{"bge-small-en-v1.5", "multilingual-e5-small", "ms-marco-MiniLM-L-12-v2"} {
		assetstest.RequireBox(t, name)
	}
	for set, m := range measuredBox {
		t.Run(set, func(t *testing.T) {
			qpath := sharedtest.Require(t, m.questions)
			dir := filepath.Join(sharedtest.Dir(), m.docs)
			args := []string{"eval", "pages", dir, "--questions", qpath, "--mode", "none", "--app", "--json"}
			if c := config.Getenv("VIKA_EVAL_BOX_CACHE"); c != "" {
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
			var row *pagesRow
			for i, r := range rep.Rows {
				if r.Search == "app (engine.Search), reranked" {
					row = &rep.Rows[i]
				}
			}
			if row == nil {
				t.Fatalf("no app row: %+v", rep.Rows)
			}
			t.Logf("models: %s", rep.AppModels)
			for kind, want := range m.byKind {
				got := row.Score
				if kind != "" {
					for _, k := range row.ByKind {
						if k.Kind == kind {
							got = k.PageScore
						}
					}
				}
				hits := [3]float64{got.PageHit1, got.PageHit5, got.PageHit8}
				t.Logf("%s %s (%d): hit@1/5/8 %.2f %.2f %.2f", set, kind, got.Questions, hits[0], hits[1], hits[2])
				for i, depth := range []int{1, 5, 8} {
					if n := int(hits[i]*float64(got.Questions) + 0.5); n < want[i]-1 {
						t.Errorf("%s %s hit@%d: %d of %d, want >= %d (measured %d)", set, kind, depth, n, got.Questions, want[i]-1, want[i])
					}
				}
			}
		})
	}
}
