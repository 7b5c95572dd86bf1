package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"vika/backend/bench"
)

func runBench(ctx context.Context, args []string, out, errOut io.Writer) error {
	usage := func() {
		fmt.Fprintln(errOut, "Usage: vika bench ingest [--json] [--pdfs DIR] [--ocr-pages N] [--rounds N]")
		fmt.Fprintln(errOut, "       "+strings.TrimPrefix(dropUsage, "Usage: "))
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage()
		if len(args) == 0 {
			return fmt.Errorf("%w: which benchmark? (ingest or drop)", errUsage)
		}
		return nil
	}
	switch args[0] {
	case "ingest":
		return runBenchIngest(ctx, args[1:], out, errOut)
	case "drop":
		return runBenchDrop(ctx, args[1:], out, errOut)
	case childCommand:
		return runBenchChild(ctx, args[1:], out)
	}
	usage()
	return fmt.Errorf("%w: unknown benchmark %q (want ingest or drop)", errUsage, args[0])
}

// childCommand is the hidden `vika bench ingest-child FILE` that `vika
// bench ingest` runs in a child process to measure the peak memory of an
// ingest.
const childCommand = "ingest-child"

// runBenchChild ingests one file as `vika ingest --json` does and adds
// this process's peak RSS, read at the end (the kernel's ru_maxrss of a
// child would include the parent's own peak on Linux).
func runBenchChild(ctx context.Context, args []string, out io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("%w: bench %s takes one file", errUsage, childCommand)
	}
	eng, err := openSession(ctx, "", false, false, io.Discard)
	if err != nil {
		return err
	}
	rep := ingestOne(ctx, eng, args[0], false)
	if err := eng.Close(); err != nil {
		return err
	}
	peak, _ := bench.SelfPeakRSS()
	return json.NewEncoder(out).Encode(struct {
		ingestReport
		PeakRSSBytes int64 `json:"peak_rss_bytes,omitempty"`
	}{rep, peak})
}

func runBenchIngest(ctx context.Context, args []string, out, errOut io.Writer) error {
	fs := newFlagSet("bench ingest", errOut)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	dir := fs.String("pdfs", "", "folder of PDFs to measure (default: ../shared/data/pdfs next to the repository root)")
	ocrPages := fs.Int("ocr-pages", bench.DefaultOCRPages, "pages of the scan recognised per OCR round (0 skips the OCR comparison)")
	rounds := fs.Int("rounds", bench.DefaultRounds, "interleaved rounds of each comparison")
	fs.Usage = func() {
		fmt.Fprintln(errOut, "Usage: vika bench ingest [--json] [--pdfs DIR] [--ocr-pages N] [--rounds N]")
		fmt.Fprintln(errOut, "\nMeasures ingestion against pdftotext and the tesseract CLI side by side, the peak memory")
		fmt.Fprintf(errOut, "of ingesting %s, and what each PDF yields. Progress goes to stderr.\n\n", bench.SlidesPDF)
		fs.PrintDefaults()
	}
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, rest)
	}
	if *rounds < 1 || *ocrPages < 0 {
		return fmt.Errorf("%w: --rounds must be at least 1 and --ocr-pages at least 0", errUsage)
	}
	if *dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		if *dir, err = bench.DefaultDir(wd); err != nil {
			return err
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find the vika binary to run the memory measurement: %w", err)
	}
	rep, err := bench.Run(ctx, bench.Options{
		Dir: *dir, Rounds: *rounds, OCRPages: *ocrPages,
		Child:    []string{exe, "bench", childCommand},
		Progress: errOut,
	})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return bench.WriteText(out, rep)
}
