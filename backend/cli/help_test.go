package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// vika help names every command and every benchmark eval and bench run.
func TestHelpNamesEveryCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), []string{"help"}, &out, &errOut); code != 0 {
		t.Fatalf("vika help exited %d: %s", code, errOut.String())
	}
	help := out.String()
	for _, c := range commands() {
		if !strings.Contains(help, "  "+c.name+" ") {
			t.Errorf("help lacks the command %q:\n%s", c.name, help)
		}
	}
	for _, sub := range []string{"(beir)", "(latency)", "(pages)", "(ingest)", "(drop)"} {
		if !strings.Contains(help, sub) {
			t.Errorf("help lacks %s:\n%s", sub, help)
		}
	}
}
