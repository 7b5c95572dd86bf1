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
	"vika/backend/testpdf"
)

func runSearchCmd(args ...string) (string, string, error) {
	var out, errOut bytes.Buffer
	err := runSearch(context.Background(), args, &out, &errOut)
	return out.String(), errOut.String(), err
}

// TestSearchRerank: `vika search --json` keeps the hit contract; --rerank
// on fails without a cross-encoder, and once the tiny one is installed
// every hit carries its rerank_score (null with --rerank off).
func TestSearchRerank(t *testing.T) {
	lib := assetstest.Require(t, assets.ORT)
	t.Setenv("VIKA_ORT_LIB", lib) // the data dir below holds no assets
	t.Setenv("VIKA_DATA_DIR", t.TempDir())
	pdf := filepath.Join(t.TempDir(), "cats.pdf")
	if err := os.WriteFile(pdf, testpdf.Text("The cat sat on the mat.", "Photosynthesis turns light into energy in the cell.", "The cell of the cat."), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--json", "--mode", "bm25", "--pdf", pdf, "the cat in the cell"}

	if _, _, err := runSearchCmd(append([]string{"--rerank", "on"}, args...)...); err == nil || !strings.Contains(err.Error(), "vika models download") {
		t.Fatalf("--rerank on without a cross-encoder: %v", err)
	}
	if _, _, err := runSearchCmd(append([]string{"--rerank", "maybe"}, args...)...); err == nil {
		t.Error("--rerank maybe accepted")
	}
	m, srv := serveReranker(t)
	t.Setenv("VIKA_MODELS_BASE_URL", srv.URL)
	if _, _, err := runModelsCmd("download", m.Name); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"on", "auto", "off"} {
		out, _, err := runSearchCmd(append([]string{"--rerank", mode}, args...)...)
		if err != nil {
			t.Fatalf("--rerank %s: %v", mode, err)
		}
		var got struct {
			Hits []map[string]any `json:"hits"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Hits) == 0 {
			t.Fatalf("--rerank %s: %v\n%s", mode, err, out)
		}
		for _, h := range got.Hits {
			for _, key := range []string{"file", "page", "chunk_id", "score", "text", "found_by", "rerank_score"} {
				if _, ok := h[key]; !ok {
					t.Errorf("--rerank %s: hit lacks %q: %v", mode, key, h)
				}
			}
			_, isNumber := h["rerank_score"].(float64)
			if (mode == "off") == isNumber {
				t.Errorf("--rerank %s: rerank_score %v", mode, h["rerank_score"])
			}
		}
	}
}
