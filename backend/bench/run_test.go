package bench_test

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/bench"
	"vika/backend/cli"
	"vika/backend/pdf"
	"vika/backend/testpdf"
)

// childEnv makes the test binary act as the vika binary: the memory
// measurement re-executes it as `<test binary> ingest --json FILE`.
const childEnv = "VIKA_BENCH_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(cli.Run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func needTools(t *testing.T) {
	t.Helper()
	for tool, pkg := range map[string]string{"pdftotext": "poppler-utils", "tesseract": "tesseract-ocr"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping: %s (Debian package %s) is not installed", tool, pkg)
		}
	}
}

// scanOf returns a PDF whose only page is an image of the text PDF's
// first page: a scan without text layer.
func scanOf(t *testing.T, text []byte) []byte {
	t.Helper()
	d, err := pdf.Open(text, pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	img, err := d.Render(1, 150)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return testpdf.Illustrations(testpdf.Illustrated{Figures: []testpdf.Figure{{X: 0, Y: 0, W: 595, H: 842, PNG: buf.Bytes()}}})
}

func writeFiles(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestRunGenerated runs every measurement on small generated PDFs: two
// born-digital files, a scan and an encrypted file.
func TestRunGenerated(t *testing.T) {
	needTools(t)
	article := testpdf.Pages(
		testpdf.Page{Heading: "1 Introduction", Body: "Probabilistic counting estimates the number of distinct elements in a large file. " + testpdf.Words("alpha", 120)},
		testpdf.Page{Heading: "2 Method", Body: "We hash every element and keep the position of the lowest set bit. " + testpdf.Words("beta", 120)},
		testpdf.Page{Body: "Les résultats confirment l'analyse théorique sur des données réelles. " + testpdf.Words("gamma", 80)},
	)
	columns := testpdf.TwoColumns(testpdf.Article{
		Title: "Reading order", Abstract: "Two columns read one after the other.",
		Left: []string{testpdf.Words("left", 60)}, Right: []string{testpdf.Words("right", 60)},
	})
	scanSource := testpdf.Text("The quick brown fox jumps over the lazy dog. Probabilistic counting with stochastic averaging.")
	dir := writeFiles(t, map[string][]byte{
		"article.pdf":   article,
		"columns.pdf":   columns,
		"scan.pdf":      scanOf(t, scanSource),
		"encrypted.pdf": testpdf.Encrypted("secret", "hidden"),
	})
	var progress bytes.Buffer
	rep, err := bench.Run(context.Background(), bench.Options{
		Dir: dir, Rounds: 1, OCRPages: 1, ScanFile: "scan.pdf", MemoryFile: "article.pdf",
		Child: []string{os.Args[0], "bench", "ingest-child"}, ChildEnv: []string{childEnv + "=1"},
		Progress: &progress,
	})
	if err != nil {
		t.Fatalf("Run: %v\nprogress:\n%s", err, progress.String())
	}
	if len(rep.Skipped) > 0 {
		t.Errorf("skipped: %v", rep.Skipped)
	}

	sets := map[string]string{}
	for _, f := range rep.Files {
		sets[f.File] = map[bool]string{true: "scanned", false: "text"}[f.Scanned]
		if f.Error != "" && !f.Scanned {
			sets[f.File] = "rejected"
		}
	}
	wantSets := map[string]string{"article.pdf": "text", "columns.pdf": "text", "scan.pdf": "scanned", "encrypted.pdf": "rejected"}
	if diff := cmp.Diff(wantSets, sets); diff != "" {
		t.Errorf("file sets (-want +got):\n%s", diff)
	}

	text := rep.Text
	if text == nil {
		t.Fatal("no text comparison")
	}
	if diff := cmp.Diff([]string{"article.pdf", "columns.pdf"}, text.Files); diff != "" {
		t.Errorf("text files (-want +got):\n%s", diff)
	}
	if text.Pages != 4 || len(text.Rounds) != 1 || text.OursRate <= 0 || text.ReferenceRate <= 0 || text.Ratio <= 0 {
		t.Errorf("text comparison = %+v", text.Comparison)
	}
	if text.ReferenceChars == 0 || text.OursChars < text.ReferenceChars*9/10 || text.OursChars > text.ReferenceChars*11/10 {
		t.Errorf("characters: ours %d, pdftotext %d: want within 10%%", text.OursChars, text.ReferenceChars)
	}

	o := rep.OCR
	if o == nil {
		t.Fatal("no OCR comparison")
	}
	if o.Pages != 1 || o.OursRate <= 0 || o.ReferenceRate <= 0 || o.OursChars < 40 || o.ReferenceChars < 40 {
		t.Errorf("OCR comparison = %+v", o)
	}

	m := rep.Memory
	if m == nil {
		t.Fatal("no memory measurement")
	}
	if m.File != "article.pdf" || m.Pages != 3 || m.Chunks == 0 || m.PeakRSSMB <= 1 || m.Stages.Extract <= 0 {
		t.Errorf("memory = %+v", m)
	}
	if runtime.GOOS == "linux" && m.Source != bench.SourceChild {
		t.Errorf("memory source = %q, want %q", m.Source, bench.SourceChild)
	}

	var out bytes.Buffer
	if err := bench.WriteText(&out, rep); err != nil {
		t.Fatal(err)
	}
	t.Logf("report:\n%s", out.String())
	for _, want := range []string{"1. Text pages/s", "2. OCR pages/s", "3. Peak memory", "4. Files", "scan.pdf"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRunWithoutTools(t *testing.T) {
	dir := writeFiles(t, map[string][]byte{"a.pdf": testpdf.Text(
		"The results confirm the theoretical analysis: the estimates stay within a few percent of the true number of distinct elements, " +
			"whatever the size of the file, and the memory used remains a few hundred bytes.")})
	rep, err := bench.Run(context.Background(), bench.Options{
		Dir: dir, Rounds: 1, OCRPages: 1,
		Pdftotext: filepath.Join(dir, "no-pdftotext"), Tesseract: filepath.Join(dir, "no-tesseract"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Text != nil || rep.OCR != nil || rep.Memory != nil {
		t.Errorf("measured without the tools: %+v", rep)
	}
	if len(rep.Skipped) != 3 || !strings.Contains(rep.Skipped[0], "poppler-utils") || !strings.Contains(rep.Skipped[1], "tesseract-ocr") {
		t.Errorf("skipped = %q", rep.Skipped)
	}
	if len(rep.Files) != 1 || rep.Files[0].Chunks == 0 || rep.Files[0].Lang != "en" {
		t.Errorf("files = %+v", rep.Files)
	}
}

// TestCommand checks `vika bench`'s argument handling (the command lives
// in backend/cli, over this package).
func TestCommand(t *testing.T) {
	empty := t.TempDir()
	tests := []struct {
		args     []string
		code     int
		contains string
	}{
		{[]string{"bench"}, 2, "which benchmark"},
		{[]string{"bench", "speed"}, 2, `unknown benchmark "speed"`},
		{[]string{"bench", "ingest", "--rounds", "0"}, 2, "--rounds must be at least 1"},
		{[]string{"bench", "ingest", "extra"}, 2, "unexpected arguments"},
		{[]string{"bench", "ingest", "--pdfs", empty}, 1, "holds no .pdf file"},
		{[]string{"bench", "ingest-child"}, 2, "takes one file"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := cli.Run(context.Background(), tt.args, &out, &errOut)
		if code != tt.code || !strings.Contains(errOut.String(), tt.contains) {
			t.Errorf("vika %s = %d, stderr %q; want %d and %q", strings.Join(tt.args, " "), code, errOut.String(), tt.code, tt.contains)
		}
	}
	t.Chdir(empty) // outside the repository: no default data set
	var out, errOut bytes.Buffer
	if code := cli.Run(context.Background(), []string{"bench", "ingest"}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "pass --pdfs") {
		t.Errorf("vika bench ingest outside the repository = %d, %q; want 1 and a hint to pass --pdfs", code, errOut.String())
	}
}
