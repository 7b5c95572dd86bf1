package bench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"vika/backend/ingest"
	"vika/backend/testpdf"
)

// BenchmarkIngestText ingests a generated 40-page text PDF with the
// pipeline of `vika bench ingest` and, in the same iterations, runs
// pdftotext on it, reporting both rates and their ratio (the aim is at
// least 0.33). Run with
//
//	go test -run '^$' -bench IngestText -benchtime 5x ./backend/bench/
func BenchmarkIngestText(b *testing.B) {
	pages := make([]testpdf.Page, 40)
	for i := range pages {
		pages[i] = testpdf.Page{Heading: "Section heading", Body: testpdf.Words("word", 400)}
	}
	path := filepath.Join(b.TempDir(), "generated.pdf")
	if err := os.WriteFile(path, testpdf.Pages(pages...), 0o644); err != nil {
		b.Fatal(err)
	}
	benchmarkIngest(b, path, len(pages))
}

// BenchmarkIngestSlides is BenchmarkIngestText on the shared data set's
// 561-page slide deck (skipped when ../shared/data is absent).
func BenchmarkIngestSlides(b *testing.B) {
	benchmarkIngest(b, testpdf.SharedPDF(b, SlidesPDF), 561)
}

func benchmarkIngest(b *testing.B, path string, pages int) {
	tool, err := exec.LookPath("pdftotext")
	if err != nil {
		b.Skip("skipping: pdftotext (Debian package poppler-utils) is not installed")
	}
	ctx := context.Background()
	var stages ingest.Timings
	if _, _, err := oursRound(ctx, []string{path}, &stages); err != nil { // warm-up: language models
		b.Fatal(err)
	}
	var rounds []Round
	stages = ingest.Timings{}
	for b.Loop() {
		ours, _, err := oursRound(ctx, []string{path}, &stages)
		if err != nil {
			b.Fatal(err)
		}
		ref, _, err := pdftotextRound(ctx, tool, []string{path})
		if err != nil {
			b.Fatal(err)
		}
		rounds = append(rounds, Round{Ours: ours.Seconds(), Reference: ref.Seconds(), OursFirst: true})
	}
	c := compare("pdftotext", pages, rounds, AimTextRatio)
	b.ReportMetric(c.OursRate, "pages/s")
	b.ReportMetric(c.ReferenceRate, "pdftotext-pages/s")
	b.ReportMetric(c.Ratio, "x_pdftotext")
	perPage := 1000 / float64(pages*len(rounds)) // ms per page
	b.ReportMetric(stages.Extract*perPage, "extract-ms/page")
	b.ReportMetric(stages.Lang*perPage, "lang-ms/page")
	b.ReportMetric((stages.Chunk+stages.Index)*perPage, "chunk+index-ms/page")
}
