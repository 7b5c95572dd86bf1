package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/testpdf"
)

// TestStudyMapCLI: vika study map prints an outlined PDF's map with each
// node's citation, and exports it as SVG; a section or a bad format is a
// usage error.
func TestStudyMapCLI(t *testing.T) {
	dir := t.TempDir()
	pdf := filepath.Join(dir, "etude.pdf")
	if err := os.WriteFile(pdf, testpdf.Outlined(4, "Une étude", "A", "S", "k", "c", []testpdf.Bookmark{
		{Title: "Introduction", Page: 1}, {Title: "Méthodes", Page: 2}, {Title: "Protocole", Depth: 1, Page: 3}}), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VIKA_OLLAMA_BASE_URL", "http://127.0.0.1:9")
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), []string{"study", "map", "--pdf", pdf}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut.String())
	}
	want := "etude.pdf [etude.pdf p.1]\n  Introduction [etude.pdf p.1]\n  Méthodes [etude.pdf p.2]\n    Protocole [etude.pdf p.3]\n4 documents and sections, 0 key terms\n"
	if out.String() != want {
		t.Errorf("map:\n%s\nwant:\n%s", out.String(), want)
	}
	svg := filepath.Join(dir, "map.svg")
	if code := Run(context.Background(), []string{"study", "map", "--pdf", pdf, "--export", "svg", "--out", svg}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut.String())
	}
	if data, err := os.ReadFile(svg); err != nil || !strings.Contains(string(data), ">Protocole <tspan") {
		t.Errorf("svg: %v\n%.300s", err, data)
	}
	for _, args := range [][]string{{"--section", "Méthodes"}, {"--export", "md", "--out", svg}} {
		errOut.Reset()
		if code := Run(context.Background(), append([]string{"study", "map", "--pdf", pdf}, args...), &out, &errOut); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage)\n%s", args, code, errOut.String())
		}
	}
}
