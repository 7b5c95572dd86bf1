package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"vika/backend/corpus"
	"vika/backend/engine"
)

// ingestReport is one line of `vika ingest --json`.
type ingestReport struct {
	File    string  `json:"file"`
	DocID   string  `json:"doc_id,omitempty"`
	Pages   int     `json:"pages,omitempty"`
	Chunks  int     `json:"chunks,omitempty"`
	Seconds float64 `json:"seconds,omitempty"`
	Error   string  `json:"error,omitempty"`
}

// errSomeFailed reports that at least one document could not be ingested
// (the others were still processed).
var errSomeFailed = errors.New("some documents could not be ingested")

func runIngest(ctx context.Context, args []string, out, errOut io.Writer) error {
	fs := newFlagSet("ingest", errOut)
	asJSON := fs.Bool("json", false, "print one JSON object per document")
	fs.Usage = func() {
		fmt.Fprintln(errOut, "Usage: vika ingest [--json] FILE...")
		fs.PrintDefaults()
	}
	files, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("%w: no files given", errUsage)
	}
	eng, err := engine.New(ctx, engine.DefaultConfig())
	if err != nil {
		return err
	}
	defer eng.Close()

	failed := 0
	for _, f := range files {
		rep := ingestOne(ctx, eng, f)
		if rep.Error != "" {
			failed++
		}
		if err := printReport(out, rep, *asJSON); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%w (%d of %d)", errSomeFailed, failed, len(files))
	}
	return nil
}

func ingestOne(ctx context.Context, eng *engine.Engine, path string) ingestReport {
	start := time.Now()
	doc, err := eng.AddFile(ctx, path, nil)
	if err != nil {
		return ingestReport{File: filepath.Base(path), Error: err.Error()}
	}
	return reportOf(doc, time.Since(start))
}

func reportOf(doc corpus.Document, took time.Duration) ingestReport {
	return ingestReport{File: doc.File, DocID: doc.ID, Pages: doc.Pages, Chunks: doc.Chunks, Seconds: took.Seconds()}
}

func printReport(out io.Writer, rep ingestReport, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(out).Encode(rep)
	}
	if rep.Error != "" {
		_, err := fmt.Fprintf(out, "%s: error: %s\n", rep.File, rep.Error)
		return err
	}
	_, err := fmt.Fprintf(out, "%s: %d pages, %d chunks in %.2fs (doc_id %s)\n", rep.File, rep.Pages, rep.Chunks, rep.Seconds, rep.DocID)
	return err
}
