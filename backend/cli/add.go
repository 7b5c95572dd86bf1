package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"vika/backend/engine"
	"vika/backend/session"
)

// addAll adds the PDFs side by side (the engine schedules their reading
// and embedding) and returns as soon as every one is searchable by BM25 or
// has failed: their vectors are still being computed, and searches use
// them as they land (a document without its vectors yet is found by its
// words). A file that fails is reported on errOut, prefixed by who, and
// the others are still used.
func addAll(ctx context.Context, eng *session.Session, paths []string, who string, errOut io.Writer) error {
	type outcome struct {
		path string
		err  error
	}
	ready := make(chan outcome, len(paths))
	for _, p := range paths {
		go func() {
			searchable := false
			_, err := eng.Ingest(ctx, p, func(pr engine.Progress) {
				// A question on the command line waits for every page's
				// words (not for a document read so far: Reading).
				if pr.Stage == engine.StageSearchable && pr.Doc != nil && pr.Doc.Reading == 0 && !searchable {
					searchable = true
					ready <- outcome{path: p}
				}
			})
			if !searchable {
				ready <- outcome{path: p, err: err}
			}
		}()
	}
	failed := 0
	for range paths {
		o := <-ready
		if o.err != nil {
			failed++
			fmt.Fprintf(errOut, "%s: could not add %s: %v\n", who, o.path, o.err)
		}
	}
	if failed == len(paths) {
		return errors.New("none of the PDFs could be read")
	}
	return nil
}
