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

// TestIngestReportsEachFile: good and bad files in one call; each bad one
// prints {"file","error"} with its specific message, the good one its
// report, and the exit status says that some failed.
func TestIngestReportsEachFile(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{
		"good.pdf":  testpdf.Text("Sampling distributions describe how an estimator varies from sample to sample."),
		"notes.pdf": []byte("just some notes\n"),
		"empty.pdf": nil,
	}
	var args = []string{"ingest", "--json"}
	for _, name := range []string{"notes.pdf", "good.pdf", "empty.pdf"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), args, &out, &errOut); code != 1 {
		t.Errorf("exit status %d, want 1 (some failed); stderr %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines:\n%s", len(lines), out.String())
	}
	want := []struct{ file, errPart string }{
		{"notes.pdf", "not a PDF"}, {"good.pdf", ""}, {"empty.pdf", "empty file (0 bytes)"},
	}
	for i, line := range lines {
		var got map[string]any
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if got["file"] != want[i].file {
			t.Errorf("line %d: file %v, want %s", i, got["file"], want[i].file)
		}
		if want[i].errPart == "" {
			if got["error"] != nil || got["pages"] != float64(1) || got["chunks"] != float64(1) {
				t.Errorf("good file report = %v", got)
			}
			continue
		}
		if len(got) != 2 || !strings.Contains(got["error"].(string), want[i].errPart) {
			t.Errorf("line %d = %v, want only file and an error containing %q", i, got, want[i].errPart)
		}
	}
}
