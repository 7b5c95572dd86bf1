package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/cache"
	"vika/backend/testpdf"
)

// TestIngestCacheInfoClear: `vika ingest --cache DIR` twice reads the
// second from the cache; `vika cache info` counts it, `clear` empties it;
// `vika search --cache DIR` finds the cached passage.
func TestIngestCacheInfoClear(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	pdf := filepath.Join(dir, "good.pdf")
	if err := os.WriteFile(pdf, testpdf.Text("Sampling distributions describe how an estimator varies from sample to sample."), 0o644); err != nil {
		t.Fatal(err)
	}
	cdir := filepath.Join(dir, "cache")
	run := func(args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := Run(ctx, args, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
		return out.String()
	}
	var reps [2]ingestReport
	for i := range reps {
		if err := json.Unmarshal([]byte(run("ingest", "--json", "--cache", cdir, pdf)), &reps[i]); err != nil {
			t.Fatal(err)
		}
	}
	if reps[0].Cached || !reps[1].Cached || reps[1].Chunks != reps[0].Chunks || reps[1].DocID != reps[0].DocID {
		t.Errorf("reports: %+v, %+v", reps[0], reps[1])
	}
	var in cache.Info
	if err := json.Unmarshal([]byte(run("cache", "info", "--dir", cdir, "--json")), &in); err != nil {
		t.Fatal(err)
	}
	if in.Documents != 1 || in.Bytes == 0 || in.Dir != cdir {
		t.Errorf("info %+v", in)
	}
	if out := run("search", "--cache", cdir, "--pdf", pdf, "estimator sample"); !strings.Contains(out, "good.pdf p.1") {
		t.Errorf("search from the cache:\n%s", out)
	}
	if out := run("cache", "clear", "--dir", cdir); !strings.Contains(out, ": 0 documents, 0 entries") {
		t.Errorf("clear: %s", out)
	}
	var out, errOut bytes.Buffer
	if code := Run(ctx, []string{"cache", "wipe"}, &out, &errOut); code != 2 {
		t.Errorf("cache wipe: exit %d", code)
	}
}
