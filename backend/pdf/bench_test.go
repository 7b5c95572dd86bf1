package pdf

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"vika/backend/testpdf"
)

// BenchmarkExtract extracts every page of the 561-page slide deck with
// Page (structured text, reading order, cleaning, classification) and,
// in the same iterations, with go-fitz's plain text and with the
// pdftotext CLI, and reports the ratios (the machines are shared:
// absolute times mean little). Run with
//
//	go test -run '^$' -bench Extract -benchtime 3x ./backend/pdf/
func BenchmarkExtract(b *testing.B) {
	path := testpdf.SharedPDF(b, "rouviere2019_intro_statistical_learning_slides.pdf")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		b.Skip("pdftotext (poppler-utils) is not installed")
	}
	var ours, plain, poppler time.Duration
	for b.Loop() {
		ours += timed(b, func() error { return extractAll(data) })
		plain += timed(b, func() error { return plainText(data) })
		poppler += timed(b, func() error { return exec.Command(pdftotext, "-q", path, os.DevNull).Run() })
	}
	b.ReportMetric(float64(ours)/float64(poppler), "x_pdftotext")
	b.ReportMetric(float64(ours)/float64(plain), "x_plain_fitz")
	b.ReportMetric(float64(plain)/float64(poppler), "plain_x_pdftotext")
}

func timed(b *testing.B, f func() error) time.Duration {
	start := time.Now()
	if err := f(); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

func extractAll(data []byte) error {
	d, err := Open(data, Limits{})
	if err != nil {
		return err
	}
	defer d.Close()
	for n := 1; n <= d.NumPages(); n++ {
		if _, err := d.Page(n); err != nil {
			return err
		}
	}
	return nil
}

// plainText is what the first version did: go-fitz's text of each page.
func plainText(data []byte) error {
	d, err := Open(data, Limits{})
	if err != nil {
		return err
	}
	defer d.Close()
	for n := 0; n < d.NumPages(); n++ {
		if _, err := d.fz.Text(n); err != nil {
			return err
		}
	}
	return nil
}
