package bench

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/corpus"
	"vika/backend/ingest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// sampleReport is a made-up report covering every section.
func sampleReport() Report {
	text := compare("pdftotext", 100, []Round{{Ours: 2, Reference: 0.5, OursFirst: true}, {Ours: 2.5, Reference: 0.6}}, AimTextRatio)
	ocrCmp := compare("tesseract CLI", 8, []Round{{Ours: 9, Reference: 10, OursFirst: true}, {Ours: 9.5, Reference: 9}}, AimOCRRatio)
	return Report{
		Dir: "/data/pdfs", CPUs: 2, Rounds: 2, Seconds: 61.25,
		Text: &TextResult{Comparison: text, Files: []string{"paper.pdf", "slides.pdf"}, Excluded: []string{"scan.pdf"},
			Stages:    ingest.Timings{Validate: 0.01, Extract: 1.2, Lang: 0.5, Chunk: 0.2, Index: 0.34},
			OursChars: 123456, ReferenceChars: 125000},
		OCR: &OCRResult{Comparison: ocrCmp, File: "scan.pdf", Workers: 2, DPI: 300, RenderSec: 1.5,
			CLIArgs:   []string{"stdout", "-l", "fra+eng", "--psm", "3", "--dpi", "300", "-c", "thresholding_method=2"},
			OursChars: 20000, ReferenceChars: 20100},
		Memory: &MemoryResult{File: "slides.pdf", Command: []string{"vika", "bench", "ingest-child"}, PeakRSSMB: 287.4, Source: SourceChild, Aim: AimPeakRSSMB, Met: true,
			Seconds: 4.5, Pages: 80, PageTypes: map[corpus.PageType]int{corpus.PageText: 79, corpus.PageMixed: 1}, OCRPages: 1, Chunks: 70, Lang: "en",
			Stages: ingest.Timings{Validate: 0.01, Extract: 1.5, OCR: 0.4, Lang: 0.3, Chunk: 0.1, Index: 0.1}},
		Files: []FileRow{
			{File: "paper.pdf", Pages: 20, PageTypes: map[corpus.PageType]int{corpus.PageText: 18, corpus.PageMixed: 2}, OCRNeeded: 2, Chunks: 90, Lang: "en", Seconds: ingest.Timings{Extract: 0.3, Lang: 0.1}},
			{File: "slides.pdf", Pages: 80, PageTypes: map[corpus.PageType]int{corpus.PageText: 79, corpus.PageMixed: 1}, OCRNeeded: 1, Chunks: 70,
				Lang: "fr", LangMixed: true, LangShares: map[string]float64{"fr": 0.7, "en": 0.3}, Seconds: ingest.Timings{Extract: 1, Lang: 0.2}},
			{File: "scan.pdf", Pages: 28, PageTypes: map[corpus.PageType]int{corpus.PageScanned: 28}, OCRNeeded: 28, Scanned: true,
				Error: "damaged PDF: none of its 28 pages can be read (scanned page: OCR is not available)"},
		},
		Skipped: []string{"something: not installed"},
	}
}

func TestWriteTextGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteText(&buf, sampleReport()); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.golden.txt", buf.Bytes())
}

func TestReportJSONGolden(t *testing.T) {
	got, err := json.MarshalIndent(sampleReport(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "report.golden.json", append(got, '\n'))
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got; go test -update rewrites it):\n%s", name, diff)
	}
}
