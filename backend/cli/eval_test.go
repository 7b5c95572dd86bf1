package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/assets"
	"vika/backend/assets/assetstest"
	"vika/backend/eval"
)

// tinyBEIR writes a three-document BEIR dataset.
func tinyBEIR(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"corpus.jsonl": `{"_id": "d1", "title": "Zebras", "text": "Zebras graze on the savanna."}
{"_id": "d2", "title": "Quarks", "text": "Quantum chromodynamics describes quarks."}
{"_id": "d3", "title": "Lions", "text": "Lions hunt zebras at night."}
`,
		"queries.jsonl":  `{"_id": "q1", "text": "what do zebras graze"}` + "\n" + `{"_id": "q2", "text": "quarks"}` + "\n",
		"qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestEvalBEIRBM25(t *testing.T) {
	dir := tinyBEIR(t)
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), []string{"eval", "beir", dir, "--mode", "bm25", "--json"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rep beirReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if rep.Documents != 3 || rep.Queries != 2 || len(rep.Modes) != 1 || rep.Modes[0].Mode != "bm25" || rep.Modes[0].NDCG10 != 1 || rep.Modes[0].Queries != 2 {
		t.Errorf("report = %+v", rep)
	}
	out.Reset()
	if code := Run(context.Background(), []string{"eval", "beir", dir, "--mode", "bm25"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"nDCG@10", "Recall@100", "MRR@10", "query p95 ms", "bm25  1.0000"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

func TestEvalUsage(t *testing.T) {
	dir := tinyBEIR(t)
	for _, args := range [][]string{
		{"eval"},
		{"eval", "nope"},
		{"eval", "beir"},
		{"eval", "beir", dir, "--mode", "fuzzy"},
		{"eval", "beir", dir, "--fusion", "max"},
		{"eval", "beir", dir, "--dense-weight", "2"},
		{"eval", "latency", dir, "--chunks", "0"},
	} {
		var out, errOut bytes.Buffer
		if code := Run(context.Background(), args, &out, &errOut); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), []string{"eval", "beir", dir, "--split", "dev", "--mode", "bm25"}, &out, &errOut); code != 1 {
		t.Errorf("missing split: exit %d, want 1", code)
	}
}

func TestLatencyChunks(t *testing.T) {
	chunks := latencyChunks([]eval.Doc{{ID: "a", Title: "T", Text: "One. Two. Three."}}, 5)
	if len(chunks) != 5 || chunks[0].Text != "T One." || chunks[1].Text != "Two. Three." || chunks[2].Text != chunks[0].Text || chunks[4].ID != "c4" {
		t.Errorf("chunks = %+v", chunks)
	}
}

// TestEvalBEIRRerank: --rerank-depth fails without a cross-encoder and,
// with the tiny one installed, reranks and names it in the report.
func TestEvalBEIRRerank(t *testing.T) {
	lib := assetstest.Require(t, assets.ORT)
	t.Setenv("VIKA_ORT_LIB", lib)
	t.Setenv("VIKA_DATA_DIR", t.TempDir())
	dir := tinyBEIR(t)
	args := []string{"eval", "beir", dir, "--mode", "bm25", "--json", "--rerank-depth", "2"}
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), args, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "vika models download") {
		t.Fatalf("without a cross-encoder: exit %d: %s", code, errOut.String())
	}
	m, srv := serveReranker(t)
	t.Setenv("VIKA_MODELS_BASE_URL", srv.URL)
	if _, _, err := runModelsCmd("download", m.Name); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := Run(context.Background(), args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rep beirReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if rep.Reranker != m.Name || len(rep.Modes) != 1 || rep.Modes[0].RecallRerank != rep.Modes[0].Recall100 {
		t.Errorf("report = %+v", rep)
	}
}
