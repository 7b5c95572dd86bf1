package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"vika/backend/atomicfile"
	"vika/backend/export"
	"vika/backend/llm"
	"vika/backend/message"
	"vika/backend/retrieve"
	"vika/backend/session"
	"vika/backend/study"
)

// studyFlags are the flags of vika study guide|cards|plan.
type studyFlags struct {
	pdfs, docs         stringList
	section, lang      string
	provider, model    string
	format, out        string
	asJSON, local, all bool
	batchTokens, cards int
}

func runStudy(ctx context.Context, args []string, out, errOut io.Writer) error {
	if len(args) > 0 && args[0] == "map" {
		return runMap(ctx, args[1:], out, errOut)
	}
	if len(args) == 0 || (args[0] != "guide" && args[0] != "cards" && args[0] != "plan") {
		return fmt.Errorf("%w: give guide, cards, plan or map (vika study guide --pdf FILE)", errUsage)
	}
	what := args[0]
	fs := newFlagSet("study "+what, errOut)
	var f studyFlags
	fs.Var(&f.pdfs, "pdf", "a PDF to add to the session (repeatable); the first is studied unless --doc or --all says otherwise")
	fs.Var(&f.docs, "doc", "a document to study: its file name, without .pdf, or a part of it that names one (repeatable: several are studied as one, citations naming each)")
	fs.BoolVar(&f.all, "all", false, "study every document added, as one")
	fs.StringVar(&f.section, "section", "", "study only this section of the document's outline (its title; one document)")
	fs.StringVar(&f.lang, "lang", "", "the language to write in (en, fr...); the document's by default")
	fs.StringVar(&f.provider, "provider", "", "the provider of a manual model choice (gemini, mistral, groq, openrouter, ollama)")
	fs.StringVar(&f.model, "model", "", "the model of a manual choice")
	fs.BoolVar(&f.asJSON, "json", false, "print the result as JSON")
	fs.BoolVar(&f.local, "ollama", false, "use the local Ollama server too")
	fs.StringVar(&f.format, "export", "", "write the result to --out: csv, tsv (Anki) or apkg for cards; html or md for a guide")
	fs.StringVar(&f.out, "out", "", "with --export: the file to write")
	fs.IntVar(&f.batchTokens, "batch-tokens", 0, "cap the passages' tokens of one request below the model's (0: the model's)")
	fs.IntVar(&f.cards, "cards", 0, "flashcards asked for per request (0: 10)")
	fs.Usage = func() {
		fmt.Fprintln(errOut, "Usage: vika study guide|cards|plan --pdf FILE [--pdf FILE...] [--doc NAME...|--all] [--section TITLE] [--json] [--export csv|tsv|apkg|html|md --out FILE]")
		fs.PrintDefaults()
	}
	if _, err := parse(fs, args[1:]); err != nil {
		return err
	}
	if err := f.check(what); err != nil {
		return err
	}
	eng, err := openSession(ctx, retrieve.ModeBM25, true, f.local || f.provider == "ollama", errOut)
	if err != nil {
		return err
	}
	defer eng.Close()
	if err := addAll(ctx, eng, f.pdfs, "vika study", errOut); err != nil {
		return err
	}
	sc, err := f.scope(ctx, eng)
	if err != nil {
		return err
	}
	o := study.Options{Lang: f.lang, BatchTokens: f.batchTokens, Cards: f.cards}
	if f.provider != "" {
		o.Model = f.provider + "/" + f.model
	}
	progress := func(p study.Progress) {
		if p.Waiting > 0 {
			fmt.Fprintf(errOut, "vika study: every model is rate limited; waiting %d s\n", p.Waiting)
			return
		}
		fmt.Fprintf(errOut, "vika study: %s %d/%d\n", p.Stage, p.Done, p.Total)
	}
	switch what {
	case "plan":
		p, err := eng.StudyPlan(ctx, sc, o)
		if err != nil {
			return err
		}
		return printPlan(out, p, f.asJSON)
	case "guide":
		g, err := eng.StudyGuide(ctx, sc, o, progress)
		printNotices(errOut, g.Notices)
		if err != nil {
			return err
		}
		return f.emit(out, g, func(w io.Writer) error { return export.Guide(w, f.format, g, time.Now()) }, func() { printGuide(out, g) })
	}
	d, err := eng.StudyCards(ctx, sc, o, progress)
	printNotices(errOut, d.Notices)
	if err != nil {
		return err
	}
	for _, r := range d.Refused {
		fmt.Fprintf(errOut, "vika study: %s\n", r.Why.English())
	}
	printMerged(errOut, d)
	return f.emit(out, d, func(w io.Writer) error { return export.Cards(w, f.format, d) }, func() { printCards(out, d) })
}

// printMerged tells on stderr how many near-duplicate cards were merged,
// and how they were found.
func printMerged(errOut io.Writer, d study.Deck) {
	switch {
	case d.Dedup == study.DedupEmbedding:
		fmt.Fprintf(errOut, "vika study: %d near-duplicate cards merged (embedding similarity, %s)\n", d.Merged, d.DedupModel)
	case d.Dedup == study.DedupTextFallback:
		fmt.Fprintf(errOut, "vika study: the embedding model failed: %d duplicate cards merged on text only (same question and answer)\n", d.Merged)
	case d.Merged > 0:
		fmt.Fprintf(errOut, "vika study: %d duplicate cards merged (same question and answer; no embedding model)\n", d.Merged)
	}
}

// printNotices tells on stderr the router's and fallback's notices of a
// guide or deck (a model rate limited, a reply not in the format asked
// for and the next model asked), also when the job failed.
func printNotices(errOut io.Writer, ns []llm.Notice) {
	for _, n := range ns {
		fmt.Fprintf(errOut, "vika study: %s\n", noticeText(n))
	}
}

func (f *studyFlags) check(what string) error {
	switch {
	case len(f.pdfs) == 0:
		return fmt.Errorf("%w: no --pdf given", errUsage)
	case f.all && len(f.docs) > 0:
		return fmt.Errorf("%w: --all or --doc, not both", errUsage)
	case f.section != "" && (f.all || len(f.docs) > 1):
		return fmt.Errorf("%w: --section is of one document", errUsage)
	case (f.provider == "") != (f.model == ""):
		return fmt.Errorf("%w: --provider and --model go together", errUsage)
	case (f.format == "") != (f.out == ""):
		return fmt.Errorf("%w: --export and --out go together", errUsage)
	case f.section != "" && what == "map":
		return fmt.Errorf("%w: a map is of whole documents", errUsage)
	case f.format != "" && what == "plan":
		return fmt.Errorf("%w: a plan is not exported", errUsage)
	case what == "cards" && f.format != "" && f.format != export.FormatCSV && f.format != export.FormatTSV && f.format != export.FormatAPKG:
		return fmt.Errorf("%w: cards export as csv, tsv or apkg", errUsage)
	case what == "guide" && f.format != "" && f.format != export.FormatHTML && f.format != export.FormatMarkdown:
		return fmt.Errorf("%w: a guide exports as html or md", errUsage)
	}
	return nil
}

// scope is what is studied: every document (--all), the documents --doc
// names, or the first --pdf added.
func (f *studyFlags) scope(ctx context.Context, eng *session.Session) (study.Scope, error) {
	docs, err := eng.Documents(ctx)
	if err != nil || len(docs) == 0 {
		return study.Scope{}, err
	}
	switch {
	case f.all:
		return study.Scope{All: true}, nil
	case len(f.docs) == 0:
		return study.Scope{DocID: docs[0].ID, Section: f.section}, nil
	}
	var sc study.Scope
	for _, name := range f.docs {
		d, err := findDoc(docs, name)
		if err != nil {
			return study.Scope{}, err
		}
		sc.Docs = append(sc.Docs, d.ID)
	}
	if len(sc.Docs) == 1 {
		sc = study.Scope{DocID: sc.Docs[0], Section: f.section}
	}
	return sc, nil
}

// emit writes v as JSON, or exports it to --out (atomically), or prints
// it as text.
func (f *studyFlags) emit(out io.Writer, v any, write func(io.Writer) error, text func()) error {
	switch {
	case f.out != "":
		var b bytes.Buffer
		if err := write(&b); err != nil {
			return err
		}
		return atomicfile.WriteFile(f.out, b.Bytes(), 0o600)
	case f.asJSON:
		return json.NewEncoder(out).Encode(v)
	}
	text()
	return nil
}

func printPlan(out io.Writer, p study.Plan, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(out).Encode(p)
	}
	if p.Extractive {
		fmt.Fprintf(out, "No model is available: an extractive outline of %d passages (%d pages), no request.\n", p.Passages, p.Pages)
		return nil
	}
	fmt.Fprintf(out, "%d requests (%d batches + %d merges) to %s, about %d tokens sent, at most %d written (%d passages, %d pages of %d documents, %d tokens a batch)\n",
		p.Requests, p.Batches, p.Reduces, p.ModelName, p.InputTokens, p.OutputTokens, p.Passages, p.Pages, p.Documents, p.BatchTokens)
	return nil
}

// lineText is a guide line with its verdict when not verified.
func lineText(l study.Line) string {
	if l.Check.Verified {
		return l.Text
	}
	return l.Text + " (not verified: " + message.New(l.Check.Reason).English() + ")"
}

func printGuide(out io.Writer, g study.Guide) {
	var b strings.Builder
	fmt.Fprintf(&b, "Study guide: %s", g.File)
	if g.Section != "" {
		fmt.Fprintf(&b, " - %s", g.Section)
	}
	if g.DocID != "" {
		fmt.Fprintf(&b, " (pages %d-%d)\n", g.From, g.To)
	} else {
		b.WriteString("\n")
		for _, d := range g.Docs {
			fmt.Fprintf(&b, "  %s: pages %d-%d, %d passages\n", d.Label, d.From, d.To, d.Passages)
		}
	}
	if len(g.Outline) > 0 {
		b.WriteString("\nNo model was available: an extractive outline.\n")
		for _, it := range g.Outline {
			title := it.Title
			if title == "" {
				title = fmt.Sprintf("Pages %d-%d", it.From, it.To)
			}
			fmt.Fprintf(&b, "\n%s\n  %s %s\n", title, it.Quote, it.Label)
		}
	}
	section := func(name string, n int) {
		if n > 0 {
			b.WriteString("\n" + name + "\n")
		}
	}
	section("Summary", len(g.Summary))
	for _, l := range g.Summary {
		b.WriteString("- " + lineText(l) + "\n")
	}
	section("Key terms", len(g.Terms))
	for _, t := range g.Terms {
		b.WriteString("- " + t.Term + ": " + lineText(t.Definition) + "\n")
	}
	section("Likely exam questions", len(g.QAs))
	for i, q := range g.QAs {
		fmt.Fprintf(&b, "%d. %s\n   %s\n", i+1, q.Question, lineText(q.Answer))
	}
	if len(g.Models) > 0 {
		fmt.Fprintf(&b, "\n%d requests; models used: %s; %d lines not verified\n", g.Plan.Requests, strings.Join(g.Models, ", "), g.Unverified())
	}
	io.WriteString(out, b.String())
}

func printCards(out io.Writer, d study.Deck) {
	for i, c := range d.Cards {
		fmt.Fprintf(out, "%d. Q: %s\n   A: %s\n", i+1, c.Question, lineText(study.Line{Text: c.Answer, Check: c.Check}))
		for _, a := range c.Also {
			fmt.Fprintf(out, "   Also %s\n", a.Label)
		}
	}
}
