package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"vika/backend/corpus"
	"vika/backend/engine"
)

func runSearch(ctx context.Context, args []string, out, errOut io.Writer) error {
	fs := newFlagSet("search", errOut)
	asJSON := fs.Bool("json", false, `print {"hits":[...]} as JSON`)
	k := fs.Int("k", 5, "number of passages")
	var pdfs stringList
	fs.Var(&pdfs, "pdf", "a PDF to search (repeatable)")
	fs.Usage = func() {
		fmt.Fprintln(errOut, "Usage: vika search [--json] [-k N] --pdf FILE [--pdf FILE...] QUESTION")
		fs.PrintDefaults()
	}
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	question := strings.TrimSpace(strings.Join(rest, " "))
	switch {
	case question == "":
		return fmt.Errorf("%w: no question given", errUsage)
	case len(pdfs) == 0:
		return fmt.Errorf("%w: no --pdf given", errUsage)
	case *k < 1:
		return fmt.Errorf("%w: -k must be at least 1", errUsage)
	}

	eng, err := engine.New(ctx, engine.DefaultConfig())
	if err != nil {
		return err
	}
	defer eng.Close()
	failed := 0
	for _, p := range pdfs {
		if _, err := eng.AddFile(ctx, p, nil); err != nil {
			failed++
			fmt.Fprintf(errOut, "vika search: %v\n", err)
		}
	}
	if failed == len(pdfs) {
		return fmt.Errorf("none of the PDFs could be read")
	}
	hits, err := eng.Search(ctx, question, *k)
	if err != nil {
		return err
	}
	return printHits(out, hits, *asJSON)
}

func printHits(out io.Writer, hits []corpus.Hit, asJSON bool) error {
	if hits == nil {
		hits = []corpus.Hit{}
	}
	if asJSON {
		return json.NewEncoder(out).Encode(struct {
			Hits []corpus.Hit `json:"hits"`
		}{hits})
	}
	if len(hits) == 0 {
		_, err := fmt.Fprintln(out, "No matching passage.")
		return err
	}
	for i, h := range hits {
		if _, err := fmt.Fprintf(out, "%d. %s  score %.3f\n   %s\n\n", i+1, h.Label, h.Score, oneLine(h.Text, 300)); err != nil {
			return err
		}
	}
	return nil
}

// oneLine flattens whitespace and cuts s to at most n runes.
func oneLine(s string, n int) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return string(r)
}
