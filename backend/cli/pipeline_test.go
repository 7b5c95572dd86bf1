package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/engine"
	"vika/backend/rag"
	"vika/backend/retrieve"
	"vika/backend/testpdf"
)

// TestPipelineFlags: --chunk-size and --chunk-overlap cut the PDFs added
// by a command (more passages at 300 characters than at the default 900),
// and a value out of its range is a usage error naming its bounds, as the
// window's settings refuse it.
func TestPipelineFlags(t *testing.T) {
	p := filepath.Join(t.TempDir(), "long.pdf")
	if err := os.WriteFile(p, testpdf.Text(testpdf.Words("entropy", 700)), 0o644); err != nil {
		t.Fatal(err)
	}
	chunks := func(args ...string) int {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := Run(context.Background(), append(append([]string{"ingest", "--json"}, args...), p), &out, &errOut); code != 0 {
			t.Fatalf("ingest %v: exit %d: %s", args, code, errOut.String())
		}
		var rep struct{ Chunks int }
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		return rep.Chunks
	}
	def, small := chunks(), chunks("--chunk-size", "300", "--chunk-overlap", "0")
	if small <= def {
		t.Errorf("passages: %d by default, %d at 300 characters; want more at 300", def, small)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ingest", "--chunk-size", "50", p}, "between 200 and 4000"},
		{[]string{"ingest", "--chunk-size", "300", "--chunk-overlap", "200", p}, "a third of their size (100)"},
		{[]string{"search", "--figure-depth", "-1", "--pdf", p, "entropy"}, "between 0 (off) and 20"},
		{[]string{"search", "--rerank-depth", "0", "--pdf", p, "entropy"}, "between 1 and 100"},
		{[]string{"ask", "--rerank-depth", "101", "--pdf", p, "entropy?"}, "between 1 and 100"},
	} {
		var out, errOut bytes.Buffer
		if code := Run(context.Background(), c.args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want a usage error saying %q", c.args, code, errOut.String(), c.want)
		}
	}
}

// TestFusionFlag: --fusion of search and ask reads profile (the default:
// the embedding model's own, the settings' ""), convex or rrf into the
// search and ask options; anything else is a usage error naming the
// choices, before any PDF is read.
func TestFusionFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want retrieve.Fusion
	}{
		{nil, ""},
		{[]string{"--fusion", "profile"}, ""},
		{[]string{"--fusion", "convex"}, retrieve.FusionConvex},
		{[]string{"--fusion=rrf"}, retrieve.FusionRRF},
	} {
		var p pipelineFlags
		fs := flag.NewFlagSet("search", flag.ContinueOnError)
		p.register(fs, true)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		var so engine.SearchOptions
		var ao rag.Options
		if err := p.search(&so); err != nil || so.Fusion != c.want {
			t.Errorf("%v: search fusion %q, %v; want %q", c.args, so.Fusion, err, c.want)
		}
		if err := p.ask(&ao); err != nil || ao.Fusion != string(c.want) {
			t.Errorf("%v: ask fusion %q, %v; want %q", c.args, ao.Fusion, err, c.want)
		}
	}
	for _, cmd := range [][]string{{"search", "--pdf", "nowhere.pdf", "entropy"}, {"ask", "--pdf", "nowhere.pdf", "entropy?"}} {
		args := append([]string{cmd[0], "--fusion", "borda"}, cmd[1:]...)
		var out, errOut bytes.Buffer
		if code := Run(context.Background(), args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), `--fusion "borda": want profile, convex or rrf`) {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, code, errOut.String())
		}
	}
}
