package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/models"
	"vika/backend/rerank"
	"vika/backend/retrieve"
	"vika/backend/session"
)

func runSearch(ctx context.Context, args []string, out, errOut io.Writer) error {
	fs := newFlagSet("search", errOut)
	asJSON := fs.Bool("json", false, `print {"hits":[...]} as JSON`)
	k := fs.Int("k", 5, "number of passages")
	cacheDir := fs.String("cache", "", "keep and reuse processed documents and their vectors in the document cache in DIR (see vika cache)")
	modeName := fs.String("mode", "auto", "retrieval mode: dense, bm25, hybrid, or auto (hybrid when an embedding model covers every document's language, else bm25)")
	rerankFlag := fs.String("rerank", "auto", "rerank the best candidates with the cross-encoder: auto (when one is installed), on (fail without one) or off")
	queries := fs.String("queries", "", `a JSONL file of {"id","question"} lines: print one {"id","hits"} line each`)
	var pdfs stringList
	fs.Var(&pdfs, "pdf", "a PDF to search (repeatable)")
	var scope scopeFlags
	scope.register(fs)
	var pipe pipelineFlags
	pipe.register(fs, true)
	fs.Usage = func() {
		fmt.Fprintln(errOut, "Usage: vika search [--json] [--mode dense|bm25|hybrid] [--rerank auto|on|off] [--fusion profile|convex|rrf] [-k N] [--figure-depth N] [--rerank-depth N] [--chunk-size N] [--chunk-overlap N] [--doc NAME...] [--pages 10-20] [--section TITLE] [--cache DIR] --pdf FILE [--pdf FILE...] (QUESTION | --queries FILE.jsonl)")
		fs.PrintDefaults()
	}
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	question := strings.TrimSpace(strings.Join(rest, " "))
	var mode retrieve.Mode // auto: the engine decides
	if *modeName != "auto" {
		m, err := retrieve.ParseMode(*modeName)
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		mode = m
	}
	switch {
	case *rerankFlag != "auto" && *rerankFlag != "on" && *rerankFlag != "off":
		return fmt.Errorf("%w: --rerank %q: want auto, on or off", errUsage, *rerankFlag)
	case question == "" && *queries == "":
		return fmt.Errorf("%w: no question given", errUsage)
	case question != "" && *queries != "":
		return fmt.Errorf("%w: give a question or --queries, not both", errUsage)
	case len(pdfs) == 0:
		return fmt.Errorf("%w: no --pdf given", errUsage)
	case *k < 1:
		return fmt.Errorf("%w: -k must be at least 1", errUsage)
	}
	if err := scope.check(); err != nil {
		return err
	}
	chunking, err := pipe.chunking()
	if err != nil {
		return err
	}

	eng, err := openSession(ctx, mode, mode == retrieve.ModeBM25, false, errOut)
	if err != nil {
		return err
	}
	defer eng.Close()
	eng.SetChunking(chunking)
	closeCache, err := useCache(ctx, eng, *cacheDir, errOut)
	if err != nil {
		return err
	}
	defer closeCache()
	if *rerankFlag == "on" {
		if err := requireReranker(eng); err != nil {
			return err
		}
	}
	if err := addAll(ctx, eng, pdfs, "vika search", errOut); err != nil {
		return err
	}
	opts := engine.SearchOptions{Mode: mode, K: *k, Rerank: *rerankFlag != "off"}
	if err := pipe.search(&opts); err != nil {
		return err
	}
	if opts.Scope, err = scope.resolve(ctx, eng); err != nil {
		return err
	}
	// A batch of queries is a measurement, and --mode dense or hybrid asks
	// for the vectors by name: both wait for them (a search in the default
	// mode answers by keywords for a PDF still being embedded, and says so).
	if *queries != "" || opts.Mode == retrieve.ModeDense || opts.Mode == retrieve.ModeHybrid {
		if err := eng.WaitVectors(ctx); err != nil {
			return err
		}
	}
	if *queries != "" {
		return searchQueries(ctx, eng, *queries, opts, out)
	}
	res, err := eng.Search(ctx, question, opts)
	if err != nil {
		return err
	}
	if n := res.Stats.KeywordsOnly; n > 0 {
		fmt.Fprintf(errOut, "vika search: %d of the PDFs searched by keywords only: their vectors are still being computed\n", n)
	}
	return printHits(out, res.Hits, *asJSON)
}

// requireReranker fails unless a cross-encoder is installed and loads.
func requireReranker(eng *session.Session) error {
	label, err := eng.Reranker()
	switch {
	case err != nil:
		return fmt.Errorf("--rerank on: %w", err)
	case label == rerank.None:
		return fmt.Errorf("--rerank on: no cross-encoder is installed: run `vika models download %s`", models.Rerankers()[0].Name)
	}
	return nil
}

// searchQueries answers every {"id","question"} line of path after the
// single ingestion, printing one {"id","hits"} line per query.
func searchQueries(ctx context.Context, eng *session.Session, path string, opts engine.SearchOptions, out io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	enc := json.NewEncoder(out)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var q struct {
			ID       string `json:"id"`
			Question string `json:"question"`
		}
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil || strings.TrimSpace(q.Question) == "" {
			return fmt.Errorf("%s line %d: want {\"id\",\"question\"}", path, line)
		}
		res, err := eng.Search(ctx, q.Question, opts)
		if err != nil {
			return fmt.Errorf("query %s: %w", q.ID, err)
		}
		if err := enc.Encode(struct {
			ID   string       `json:"id"`
			Hits []corpus.Hit `json:"hits"`
		}{q.ID, res.Hits}); err != nil {
			return err
		}
	}
	return sc.Err()
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
		rr := ""
		if h.RerankScore != nil {
			rr = fmt.Sprintf("  rerank %.3f", *h.RerankScore)
		}
		if h.Kind.IsRegion() {
			rr += "  (" + string(h.Kind) + ")"
		}
		if h.FoundBy == retrieve.FoundImage {
			rr += "  found by its image (CLIP)"
		}
		if _, err := fmt.Fprintf(out, "%d. %s  score %.3f%s\n   %s\n\n", i+1, h.Label, h.Score, rr, oneLine(h.Text, 300)); err != nil {
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

// openSession opens the session of a command (session.Open, as the window
// does, without the user's settings): without the embedding model when
// noEmbeddings (nothing to load), and failing early when mode needs a
// model that cannot be loaded ("" lets the engine choose). A configuration
// problem is told on errOut; answers then say it too. ollama turns the
// local Ollama server on.
func openSession(ctx context.Context, mode retrieve.Mode, noEmbeddings, ollama bool, errOut io.Writer) (*session.Session, error) {
	cfg := engine.DefaultConfig()
	cfg.NoEmbeddings = noEmbeddings
	s, err := session.Open(ctx, session.Options{Engine: &cfg, NoSettings: true, Ollama: ollama})
	if err != nil {
		return nil, err
	}
	if err := s.NeedMode(mode); err != nil {
		s.Close()
		return nil, err
	}
	if p := s.Problem(); p != nil {
		fmt.Fprintf(errOut, "vika: %v\n", p)
	}
	return s, nil
}
