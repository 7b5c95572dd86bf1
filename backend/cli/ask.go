package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"vika/backend/llm"
	"vika/backend/message"
	"vika/backend/prompt"
	"vika/backend/rag"
	"vika/backend/retrieve"
	"vika/backend/session"
)

// errPartial reports an answer that broke off (what arrived was printed).
var errPartial = errors.New("the answer broke off: what arrived is printed above")

func runAsk(ctx context.Context, args []string, out, errOut io.Writer) error {
	fs := newFlagSet("ask", errOut)
	asJSON := fs.Bool("json", false, "print the answer as JSON (rag.Answer) instead of streaming its text")
	provider := fs.String("provider", "", "the provider of a manual model choice (gemini, mistral, groq, openrouter, ollama)")
	model := fs.String("model", "", "the model of a manual choice, e.g. gemini-2.5-flash")
	auto := fs.Bool("auto", false, "route automatically (the default)")
	modeName := fs.String("mode", "auto", "retrieval mode: dense, bm25, hybrid, or auto (hybrid when an embedding model covers every document's language, else bm25)")
	k := fs.Int("k", rag.DefaultK, "number of passages in the prompt")
	hyde := fs.Bool("hyde", false, "search with a passage the cheapest model imagines as the answer (HyDE)")
	multi := fs.Bool("multi-query", false, "search with rephrasings of the question too, fused")
	variants := fs.Int("multi-query-variants", 0, "with --multi-query: how many rephrasings to search with (1 to 5; 0 for 3)")
	queries := fs.String("queries", "", "a JSON-lines file of questions ({\"question\": \"...\", \"id\": \"...\"} a line): answer each of them after one ingestion")
	jsonlPath := fs.String("jsonl", "-", "with --queries: where the JSON lines of the answers go (- for standard output)")
	reportPath := fs.String("report", "vika-report.html", "with --queries: where the HTML report goes")
	summaries := fs.Bool("summaries", false, "first have a model summarise each passage (the summary index, searched as a list of its own; one request a passage, up to 300 a PDF)")
	local := fs.Bool("ollama", false, "use the local Ollama server too (off unless given, or unless --provider is ollama)")
	var pdfs stringList
	fs.Var(&pdfs, "pdf", "a PDF to ask about (repeatable)")
	var scope scopeFlags
	scope.register(fs)
	var pipe pipelineFlags
	pipe.register(fs, true)
	fs.Usage = func() {
		fmt.Fprintln(errOut, "Usage: vika ask [--json] [--provider P --model M | --auto] [--mode hybrid] [--fusion profile|convex|rrf] [-k N] [--figure-depth N] [--rerank-depth N] [--chunk-size N] [--chunk-overlap N] [--doc NAME...] [--pages 10-20] [--section TITLE] --pdf FILE [--pdf FILE...] QUESTION")
		fmt.Fprintln(errOut, "       vika ask --queries QUESTIONS.jsonl [--jsonl OUT.jsonl] [--report REPORT.html] [options] --pdf FILE [--pdf FILE...]")
		fmt.Fprintln(errOut, "\nKeys come from GEMINI_API_KEY, MISTRAL_API_KEY, GROQ_API_KEY, OPENROUTER_API_KEY or the system keyring;\nVIKA_<PROVIDER>_BASE_URL overrides a provider's address.")
		fs.PrintDefaults()
	}
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	question := strings.TrimSpace(strings.Join(rest, " "))
	var mode retrieve.Mode
	if *modeName != "auto" {
		if mode, err = retrieve.ParseMode(*modeName); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	var qs []query
	if *queries != "" {
		if question != "" {
			return fmt.Errorf("%w: %v", errUsage, errNoQuestionWithQueries)
		}
		if *jsonlPath == "-" && *reportPath == "-" {
			return fmt.Errorf("%w: --jsonl and --report cannot both be standard output", errUsage)
		}
		if qs, err = readQueries(*queries); err != nil {
			return err
		}
	}
	switch {
	case question == "" && qs == nil:
		return fmt.Errorf("%w: no question given", errUsage)
	case len(pdfs) == 0:
		return fmt.Errorf("%w: no --pdf given", errUsage)
	case *variants < 0 || *variants > prompt.MaxRephrasings:
		return fmt.Errorf("%w: --multi-query-variants must be between 1 and %d", errUsage, prompt.MaxRephrasings)
	case *k < 1 || *k > rag.MaxK:
		return fmt.Errorf("%w: -k must be between 1 and %d", errUsage, rag.MaxK)
	case (*provider == "") != (*model == ""):
		return fmt.Errorf("%w: --provider and --model go together", errUsage)
	case *auto && *provider != "":
		return fmt.Errorf("%w: give --auto or --provider and --model, not both", errUsage)
	}
	if err := scope.check(); err != nil {
		return err
	}
	if _, err := pipe.settings(); err != nil {
		return err
	}
	if qs != nil && (len(scope.docs) > 0 || scope.pages != "") {
		return fmt.Errorf("%w: --doc and --pages limit one question; with --queries, give each its own run", errUsage)
	}

	eng, err := openSession(ctx, mode, mode == retrieve.ModeBM25, *local || *provider == "ollama", errOut)
	if err != nil {
		return err
	}
	defer eng.Close()
	opts := rag.Options{Provider: *provider, Model: *model, Mode: string(mode), K: *k, HyDE: *hyde, MultiQuery: *multi, MultiQueryVariants: *variants, Rerank: true}
	if err := pipe.ask(&opts); err != nil {
		return err
	}
	chunking, _ := pipe.chunking() // checked by pipe.ask
	eng.SetChunking(chunking)
	if qs != nil {
		return runBatch(ctx, eng, pdfs, qs, opts, batchOut{jsonl: *jsonlPath, report: *reportPath}, out, errOut)
	}
	if err := addAll(ctx, eng, pdfs, "vika ask", errOut); err != nil {
		return err
	}
	if opts.Scope, err = scope.resolve(ctx, eng); err != nil {
		return err
	}
	if *summaries {
		if err := summarizeAll(ctx, eng, errOut); err != nil {
			return err
		}
	}

	a, err := eng.Ask(ctx, question, opts, askPrinter(out, errOut, *asJSON))
	if *asJSON && (err == nil || a.Answer != "") {
		if jerr := json.NewEncoder(out).Encode(a); jerr != nil {
			return jerr
		}
	}
	if !*asJSON && a.Footer != "" {
		fmt.Fprintf(out, "\n\n%s\n", a.Footer)
	}
	switch {
	case err != nil:
		return err
	case a.Partial:
		return errPartial
	}
	return nil
}

// summarizeAll summarises every document of the session and waits,
// saying what was done on errOut.
func summarizeAll(ctx context.Context, eng *session.Session, errOut io.Writer) error {
	docs, err := eng.Documents(ctx)
	if err != nil {
		return err
	}
	for _, d := range docs {
		rep, err := eng.SummarizeNow(ctx, d.ID)
		if err != nil {
			return fmt.Errorf("summarise %s: %w", d.Label, err)
		}
		fmt.Fprintf(errOut, "vika ask: summarised %d passages of %s (%d refused, %d left out by the cap)\n", rep.Summarized, d.Label, rep.Refused, rep.OverCap)
	}
	return nil
}

// askPrinter streams the answer's text to out (unless asJSON) and its
// notices to errOut as they happen.
func askPrinter(out, errOut io.Writer, asJSON bool) func(rag.Event) {
	return func(ev rag.Event) {
		switch ev.Type {
		case rag.EventDelta:
			if !asJSON {
				io.WriteString(out, ev.Text)
			}
		case rag.EventNotice:
			fmt.Fprintf(errOut, "vika ask: %s\n", noticeText(*ev.Notice))
		}
	}
}

// noticeText is a notice's English (package message); a notice without a
// code keeps the text it came with.
func noticeText(n llm.Notice) string {
	if n.Code == "" {
		return n.Message
	}
	return message.Message{Code: n.Code, Params: n.Params}.English()
}
