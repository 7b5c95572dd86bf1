package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vika/backend/testpdf"
)

// envHelper makes this test binary run as `vika` with its arguments
// (TestMain), so that a test can run the command as a process.
const envHelper = "VIKA_CLI_TEST_AS_VIKA"

// helperSetup, where set, readies a helper given a value other than "1"
// (amplify_linux_test.go's "data=N": a memory limit).
var helperSetup func(v string) error

func TestMain(m *testing.M) {
	if v := os.Getenv(envHelper); v != "" {
		if v != "1" && helperSetup != nil {
			if err := helperSetup(v); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
		}
		os.Exit(Run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// `vika ingest --json` on a mix of hostile and good PDFs exits on its own,
// completes the good ones, lists the hostile ones with their errors and
// exits with status 1.
func TestIngestHostileFiles(t *testing.T) {
	dir := t.TempDir()
	files := []struct {
		name string
		data []byte
		// errPart is in the document's error; pageErr in page 2's.
		errPart, pageErr string
	}{
		{"good.pdf", testpdf.Text("Sampling distributions describe how an estimator varies from sample to sample."), "", ""},
		{"fanout.pdf", testpdf.FanOut(10, 12), "", "page 2 took too long and was skipped"},
		{"stuck.pdf", testpdf.FanOutAlone(10, 12), "none of its 1 pages can be read", ""},
		{"thin.pdf", testpdf.ThinPage(1e20, 100), "", "larger than the 14400 pt"},
		{"flood.pdf", testpdf.ImageFlood(400, 2000), "", "draws 400 images"},
		{"bomb.pdf", testpdf.FlateBomb(64 << 20), "", ""},
		{"good2.pdf", testpdf.Text("Confidence intervals cover the parameter in a stated share of samples."), "", ""},
	}
	args := []string{"ingest", "--json"}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env = append(os.Environ(), envHelper+"=1", "VIKA_PAGE_TIMEOUT_S=2")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err = cmd.Run()
	t.Logf("vika ingest ran %.1f s", time.Since(start).Seconds())
	if ctx.Err() != nil {
		t.Fatalf("vika ingest did not exit within 60 s; stdout:\n%s", out.String())
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("exit: %v, want status 1; stderr:\n%s", err, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(files) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(files), out.String())
	}
	for i, f := range files {
		var got struct {
			File       string `json:"file"`
			Chunks     int    `json:"chunks"`
			Error      string `json:"error"`
			PageErrors []struct {
				Page  int    `json:"page"`
				Error string `json:"error"`
			} `json:"page_errors"`
		}
		if err := json.Unmarshal([]byte(lines[i]), &got); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		switch {
		case got.File != f.name:
			t.Errorf("line %d is %s, want %s", i, got.File, f.name)
		case f.errPart != "":
			if !strings.Contains(got.Error, f.errPart) {
				t.Errorf("%s: error %q, want %q", f.name, got.Error, f.errPart)
			}
		case got.Error != "" || got.Chunks == 0:
			t.Errorf("%s: error %q, %d chunks; want it ingested", f.name, got.Error, got.Chunks)
		case f.pageErr != "":
			if len(got.PageErrors) != 1 || got.PageErrors[0].Page != 2 || !strings.Contains(got.PageErrors[0].Error, f.pageErr) {
				t.Errorf("%s: page errors %+v, want page 2: %q", f.name, got.PageErrors, f.pageErr)
			}
		}
	}
}
