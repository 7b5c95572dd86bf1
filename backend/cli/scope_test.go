package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/testpdf"
)

// `vika search --section TITLE` searches only that outline section's pages
// (the second entry runs to the page before the third), and a title the
// outline does not hold is a usage error naming it, not an unscoped search.
func TestSearchSection(t *testing.T) {
	marks := []testpdf.Bookmark{{Title: "Introduction", Page: 1}, {Title: "Méthodes", Page: 2}, {Title: "Données", Page: 3, Depth: 1}, {Title: "Résultats", Page: 4}}
	path := filepath.Join(t.TempDir(), "outlined.pdf")
	if err := os.WriteFile(path, testpdf.Outlined(5, "Une étude", "A", "S", "k", "c", marks), 0o644); err != nil {
		t.Fatal(err)
	}
	search := func(args ...string) ([]int, string, int) {
		var out, errOut bytes.Buffer
		code := Run(context.Background(), append([]string{"search", "--json", "--mode", "bm25", "-k", "10", "--pdf", path}, args...), &out, &errOut)
		var res struct {
			Hits []struct {
				Page int `json:"page"`
			} `json:"hits"`
		}
		var pages []int
		if code == 0 {
			if err := json.Unmarshal(out.Bytes(), &res); err != nil {
				t.Fatalf("%s: %v", out.String(), err)
			}
			for _, h := range res.Hits {
				pages = append(pages, h.Page)
			}
		}
		return pages, errOut.String(), code
	}
	all, _, code := search("page of the outlined document")
	if code != 0 || len(all) != 5 {
		t.Fatalf("unscoped: pages %v (exit %d), want all 5", all, code)
	}
	got, errText, code := search("--section", "méthodes", "page of the outlined document")
	if code != 0 || len(got) != 2 {
		t.Fatalf("--section méthodes: pages %v (exit %d, %s), want 2 and 3", got, code, errText)
	}
	for _, p := range got {
		if p != 2 && p != 3 {
			t.Errorf("--section méthodes: page %d, outside 2-3", p)
		}
	}
	if _, errText, code = search("--section", "Conclusion", "page"); code == 0 || !strings.Contains(errText, `"Conclusion"`) {
		t.Errorf("unknown section: exit %d, %q", code, errText)
	}
}
