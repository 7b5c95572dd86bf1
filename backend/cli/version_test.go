package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	t.Setenv("VIKA_DATA_DIR", t.TempDir()) // no assets there, and no other place searched
	t.Setenv("VIKA_ORT_LIB", "")
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), []string{"version"}, &out, &errOut); code != 0 {
		t.Fatalf("vika version exited %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 || lines[0] != "vika "+Version {
		t.Fatalf("vika version printed:\n%s", out.String())
	}
	for i, want := range []string{"onnxruntime ", "use-lite-model ", "use-lite-vocab "} {
		line := lines[i+1]
		if !strings.HasPrefix(line, want) || !strings.Contains(line, "@") || !strings.Contains(line, "problem: ") ||
			!strings.Contains(line, "not found") {
			t.Errorf("asset line %q: want %q, its npm source and the problem", line, want)
		}
	}
	if code := Run(context.Background(), []string{"version", "extra"}, &out, &errOut); code != 2 {
		t.Errorf("vika version extra exited %d, want 2", code)
	}
}
