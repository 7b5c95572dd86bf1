package eval

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writeDataset(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
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

func TestLoadBEIR(t *testing.T) {
	dir := writeDataset(t, map[string]string{
		"corpus.jsonl": `{"_id": "d1", "title": "T1", "text": "one"}
{"_id": "d2", "title": "", "text": "two", "metadata": {}}
`,
		"queries.jsonl": `{"_id": "q1", "text": "first?"}
{"_id": "q2", "text": "second?"}
{"_id": "q3", "text": "third?"}
`,
		"qrels/test.tsv":  "query-id\tcorpus-id\tscore\nq3\td1\t1\nq1\td2\t1\nq1\td1\t0\n",
		"qrels/train.tsv": "query-id\tcorpus-id\tscore\nq2\td2\t1\n",
	})
	ds, err := LoadBEIR(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	want := &Dataset{
		Split:   "test",
		Corpus:  []Doc{{"d1", "T1", "one"}, {"d2", "", "two"}},
		Queries: []Query{{"q1", "first?"}, {"q3", "third?"}},
		Qrels:   Qrels{"q1": {"d2": 1, "d1": 0}, "q3": {"d1": 1}},
	}
	if diff := cmp.Diff(want, ds); diff != "" {
		t.Errorf("dataset (-want +got):\n%s", diff)
	}
}

func TestLoadBEIRErrors(t *testing.T) {
	good := map[string]string{
		"corpus.jsonl":   `{"_id": "d1", "text": "one"}`,
		"queries.jsonl":  `{"_id": "q1", "text": "?"}`,
		"qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\td1\t1\n",
	}
	with := func(name, body string) map[string]string {
		m := map[string]string{}
		for k, v := range good {
			m[k] = v
		}
		m[name] = body
		return m
	}
	tests := []struct {
		name  string
		files map[string]string
		split string
		want  string
	}{
		{"missing split", good, "dev", "dev.tsv"},
		{"bad split", good, "../x", "bad split"},
		{"bad json", with("corpus.jsonl", `{"_id": "d1"`), "test", "corpus.jsonl"},
		{"no id", with("corpus.jsonl", `{"text": "x"}`), "test", "without _id"},
		{"bad score", with("qrels/test.tsv", "q1\td1\tyes\n"), "test", "score"},
		{"bad columns", with("qrels/test.tsv", "q1 d1 1\n"), "test", "tab-separated"},
		{"empty qrels", with("qrels/test.tsv", "query-id\tcorpus-id\tscore\n"), "test", "no judgement"},
		{"unknown query", with("qrels/test.tsv", "q7\td1\t1\n"), "test", "missing from queries"},
	}
	for _, tc := range tests {
		_, err := LoadBEIR(writeDataset(t, tc.files), tc.split)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
		if tc.name == "bad json" && !errors.Is(err, ErrBadDataset) {
			t.Errorf("%s: %v is not ErrBadDataset", tc.name, err)
		}
	}
}
