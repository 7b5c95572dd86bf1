package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"vika/backend/embed"
	"vika/backend/engine"
	"vika/backend/eval"
	"vika/backend/models"
	"vika/backend/retrieve"
	"vika/backend/session"
)

const evalPagesUsage = `Usage:
  vika eval pages DIR [--questions FILE] [--mode all|bm25|dense|hybrid|default|none]
                      [--split all|tune|test] [--cache DIR] [--course FILE] [--json] [--by-file] [--app [--rerank-depth N]]
                      [--page-share S] [--page-window N] [--page-diverse=false]
                      [--page-whole=false] [--page-bring N] [--page-whole-weight W]
                      [--regions=false] [--together] [--summaries lead|model [--summaries-max N]]
                      [--sweep] [--dense-weight W ...]

pages ingests the PDFs of DIR that the questions name (with OCR; --cache
keeps what ingest and the embedder made, so later runs skip both), indexes
each PDF alone, and scores every question on its own PDF: hit@1, hit@5,
hit@8 and MRR over distinct pages, sources@8 (an answer page among the
pages of the first 8 passages, those an answer's prompt holds) and, as
before, hit@5 over passages. Each mode runs with the page ranking
(retrieve.PageRanking, set by the --page flags) and without it, next to
BM25 over whole pages (k1 0.9, b 0.4). "default" is the engine's choice for
a session holding that PDF alone: hybrid for English, BM25 otherwise;
"none" scores only the whole-page baselines (and --app). --app also
scores the app's own search: each PDF in an engine session of its own,
its models chosen per language as the window chooses them, every
question asked through engine.Search in the default mode, reranked by the
installed cross-encoder (its first --rerank-depth candidates, the app's 20
by default) and not.
--sweep also scores the page ranking's share and window, and the pages
the whole-page list brings (--page-bring) with its weight in the fusion
(--page-whole-weight). --regions=false leaves out the passages of tables,
figures and formulas (the app's VIKA_REGIONS=off), to measure what they
bring. --course takes the PDFs' processed data from a course file
(their bytes in DIR must match it): the figures then measure the course
against a fresh ingest.

--questions reads the repository's format or MMLongBench-Doc's JSONL as
published (its unanswerable questions are not scored by page: they
measure the abstain rule, reported with the share of answerable
questions it wrongly abstains on). --together also indexes every PDF in one
session and scores each question over all of them, unscoped and scoped to
its own PDF (corpus.Scope, applied inside retrieval), with the page ranking
on.

--summaries also indexes a summary of each passage as the summary list
(the summary index, docs/eval/SUMMARIES.md): "lead" writes them without a
model (each passage's section and first sentence, as the test fakes do),
"model" asks the models the app would (keys from the environment), at
most --summaries-max a PDF; --summary-weight sets the list's weight in the
fusion. --together's session has no summaries.`

// pagesRow is one line of the page report.
type pagesRow struct {
	Search string           `json:"search"`
	Pages  string           `json:"page_ranking"`
	Score  eval.PageScore   `json:"overall"`
	ByKind []eval.KindScore `json:"by_kind"`
	ByFile []eval.FileScore `json:"by_file"`
	Misses []string         `json:"misses_at_sources@8"`
	// Results holds each question's outcome.
	Results []eval.PageResult `json:"results"`
}

type pagesReport struct {
	Questions string `json:"questions"`
	Split     string `json:"split"`
	Count     int    `json:"count"`
	// Unanswerable counts the questions without answer pages (not
	// scored by page); Abstain measures the abstain rule on all of them.
	Unanswerable int `json:"unanswerable"`
	// AppModels names the models of the --app rows' sessions.
	AppModels string        `json:"app_models,omitempty"`
	Abstain   *abstainScore `json:"abstain,omitempty"`
	Model     string        `json:"model,omitempty"`
	// Summaries says what --summaries indexed (nil without it).
	Summaries *summaryCounts `json:"summaries,omitempty"`
	Rows      []pagesRow     `json:"rows"`
	Seconds   float64        `json:"seconds"`
}

func runEvalPages(ctx context.Context, args []string, out, errOut io.Writer) error {
	start := time.Now()
	fs := newFlagSet("eval pages", errOut)
	qpath := fs.String("questions", "testdata/pdf_questions.jsonl", "question set (JSONL)")
	modeFlag := fs.String("mode", "all", "all, bm25, dense, hybrid or default")
	split := fs.String("split", "all", "questions of the tune or test half, or all")
	cacheDir := fs.String("cache", "", "directory caching ingested and embedded PDFs")
	app := fs.Bool("app", false, "also score the app's own search: each PDF in an engine session of its own, asked through engine.Search in the default mode, reranked and not")
	rerankDepth := fs.Int("rerank-depth", 0, "with --app: candidates the cross-encoder rescores (0: the app's, retrieve.DefaultRerankDepth)")
	coursePath := fs.String("course", "", "take each PDF's processed data from this course file (vika course save) instead of ingesting it")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	byFile := fs.Bool("by-file", false, "also print the scores per file")
	sweep := fs.Bool("sweep", false, "also score page shares 0..0.5 and windows 50..200")
	workers := fs.Int("workers", defaultWorkers(), "chunk groups embedded at once")
	regions := fs.Bool("regions", true, "detect tables, figures and formulas and index their passages (as the app does)")
	def := retrieve.DefaultPageRanking
	share := fs.Float64("page-share", def.Share, "page ranking: weight of a page's other chunks")
	window := fs.Int("page-window", def.Window, "page ranking: candidates ranked by page")
	diverse := fs.Bool("page-diverse", def.Diverse, "page ranking: one chunk per page before any second one")
	whole := fs.Bool("page-whole", def.WholePages, "page ranking: fuse BM25 over whole pages")
	bring := fs.Int("page-bring", def.Bring, "page ranking: first pages of the whole-page list brought into the ranking")
	wholeWeight := fs.Float64("page-whole-weight", def.WholeWeight, "page ranking: weight of the whole-page rank in the fusion (0: 1)")
	convex := fs.Float64("page-convex", def.Convex, "page ranking: fuse pages by score, this weight on the whole-page score (0: by rank)")
	okapi := fs.Bool("page-okapi", def.Okapi, "page ranking: score whole pages by the textbook BM25 (raw frequency, no coordination)")
	summaries := fs.String("summaries", "", "also index a summary of each passage as the summary list: lead (each passage's section and first sentence, as the test fake writes them; no model) or model (asked of the models the app would use: keys from the environment)")
	summaryWeight := fs.Float64("summary-weight", 0, "with --summaries: the summary list's weight in the fusion (0: retrieve.SummaryWeight)")
	summariesMax := fs.Int("summaries-max", session.DefaultSummarizeMax, "with --summaries: the most passages summarised a PDF")
	together := fs.Bool("together", false, "also score every question over all the PDFs in one session, unscoped and scoped to its PDF")
	var pf profileFlags
	pf.register(fs)
	fs.Usage = func() { fmt.Fprintln(errOut, evalPagesUsage); fs.PrintDefaults() }
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return fmt.Errorf("%w: want the directory of the PDFs", errUsage)
	}
	modes, err := pagesModes(*modeFlag)
	if err != nil {
		return err
	}
	all, err := eval.LoadPageQuestions(*qpath)
	if err != nil {
		return err
	}
	qs, err := eval.SelectSplit(all, *split)
	if err != nil {
		return fmt.Errorf("%w: --split: %v", errUsage, err)
	}
	var emb embed.Embedder
	var prof *retrieve.Profile
	rep := pagesReport{Questions: *qpath, Split: *split, Count: len(qs)}
	if needsEmbedder(modes) {
		c, err := models.Embedder(true)
		if err != nil {
			return err
		}
		if emb, err = embed.Open(models.Root(), c); err != nil {
			return err
		}
		defer emb.Close()
		p, err := pf.apply(retrieve.ProfileFor(emb.Name()))
		if err != nil {
			return err
		}
		prof, rep.Model = &p, emb.Name()
	}
	off := retrieve.PageRanking{}
	on := retrieve.PageRanking{Share: *share, Window: *window, Diverse: *diverse, WholePages: *whole, Bring: *bring, WholeWeight: *wholeWeight, Okapi: *okapi, Convex: *convex}
	given, err := courseResults(ctx, *coursePath)
	if err != nil {
		return err
	}
	docs, err := loadPagesDocs(ctx, rest[0], *cacheDir, given, all, emb, retrieve.Options{Profile: prof, EmbedWorkers: *workers, Pages: &off, SummaryWeight: *summaryWeight, OkapiPages: true}, *regions, errOut)
	if err != nil {
		return err
	}
	defer func() {
		for _, d := range docs {
			d.close()
		}
	}()
	var closers []func() error
	if *summaries != "" {
		open := func(ctx context.Context) (engine.Summarizer, string, error) {
			s, err := openSession(ctx, retrieve.ModeBM25, true, false, errOut)
			if err != nil {
				return nil, "", err
			}
			closers = append(closers, s.Close)
			return s.Summarizer(ctx)
		}
		defer func() {
			for _, c := range closers {
				c()
			}
		}()
		sc, err := summarizeDocs(ctx, docs, *summaries, *summariesMax, open, errOut)
		if err != nil {
			return err
		}
		rep.Summaries = &sc
	}
	run := func(search, pages string, ret eval.PageRetriever) error {
		r, err := eval.Pages(ctx, qs, ret)
		if err != nil {
			return err
		}
		rep.Unanswerable = r.Unanswerable
		row := pagesRow{Search: search, Pages: pages, Score: r.Overall, ByKind: r.ByKind, ByFile: r.ByFile, Results: r.Results}
		for _, res := range r.Results {
			if !res.Sources {
				row.Misses = append(row.Misses, res.ID)
			}
		}
		rep.Rows = append(rep.Rows, row)
		return nil
	}
	if err := run("whole-page BM25", "-", wholePageRetriever(docs)); err != nil {
		return err
	}
	if err := run("whole-page BM25, textbook", "-", okapiPageRetriever(docs)); err != nil {
		return err
	}
	if *app {
		a, err := openAppPages(ctx, rest[0], *cacheDir, all, errOut)
		if err != nil {
			return err
		}
		defer a.close()
		rep.AppModels = a.models()
		if err := run("app (engine.Search), reranked", "app", a.retriever(true, *rerankDepth)); err != nil {
			return err
		}
		if err := run("app (engine.Search), not reranked", "app", a.retriever(false, 0)); err != nil {
			return err
		}
	}
	if *together {
		s, err := newTogether(ctx, docs, emb, retrieve.Options{Profile: prof, EmbedWorkers: *workers, Pages: &on, OkapiPages: true})
		if err != nil {
			return err
		}
		defer s.close()
		for _, m := range modes {
			for _, scoped := range []bool{false, true} {
				label := modeName(m) + ", all PDFs, unscoped"
				if scoped {
					label = modeName(m) + ", all PDFs, scoped to its PDF"
				}
				if err := run(label, pagesLabel(on), s.retriever(m, on, scoped)); err != nil {
					return err
				}
			}
		}
	}
	for _, m := range modes {
		for _, pr := range []retrieve.PageRanking{off, on} {
			with := func(d *pagesDoc) *retrieve.Retriever { return d.r.WithPages(pr) }
			if err := run(modeName(m), pagesLabel(pr), pageRetriever(docs, m, with)); err != nil {
				return err
			}
		}
		if m == "" {
			with := func(d *pagesDoc) *retrieve.Retriever { return d.r.WithPages(on) }
			if err := run("default + whole-page BM25 (RRF)", pagesLabel(on), fusedPages(pageRetriever(docs, m, with), wholePageRetriever(docs))); err != nil {
				return err
			}
		}
		if m == "" {
			if rep.Abstain, err = measureAbstain(ctx, qs, docs, on); err != nil {
				return err
			}
		}
		if !*sweep {
			continue
		}
		for _, pr := range sweepRankings(on) {
			with := func(d *pagesDoc) *retrieve.Retriever { return d.r.WithPages(pr) }
			if err := run(modeName(m), pagesLabel(pr), pageRetriever(docs, m, with)); err != nil {
				return err
			}
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return printPages(out, rep, *byFile)
}

// pagesModes parses --mode of eval pages; "" stands for default.
func pagesModes(s string) ([]retrieve.Mode, error) {
	switch s {
	case "all":
		return []retrieve.Mode{retrieve.ModeBM25, retrieve.ModeDense, retrieve.ModeHybrid, ""}, nil
	case "default":
		return []retrieve.Mode{""}, nil
	case "none":
		return nil, nil // the baselines (and --app) alone
	}
	m, err := retrieve.ParseMode(s)
	if err != nil {
		return nil, fmt.Errorf("%w: --mode: %v", errUsage, err)
	}
	return []retrieve.Mode{m}, nil
}

func modeName(m retrieve.Mode) string {
	if m == "" {
		return "default"
	}
	return string(m)
}

func pagesLabel(p retrieve.PageRanking) string {
	if p == (retrieve.PageRanking{}) {
		return "off"
	}
	label := fmt.Sprintf("share %.2f, window %d, diverse %v, whole %v", p.Share, p.Window, p.Diverse, p.WholePages)
	if p.Convex > 0 {
		label += fmt.Sprintf(", convex %.2f", p.Convex)
	}
	if p.Bring > 0 {
		label += fmt.Sprintf(", bring %d, weight %.1f", p.Bring, cmp.Or(p.WholeWeight, 1))
	}
	if p.Okapi {
		label += ", okapi"
	}
	return label
}

// sweepRankings are the page rankings --sweep scores beside on: shares
// and windows, then the whole-page list's pages brought and its weight.
func sweepRankings(on retrieve.PageRanking) []retrieve.PageRanking {
	var out []retrieve.PageRanking
	for _, w := range []int{50, 100, 200} {
		for _, s := range []float64{0, 0.05, 0.1, 0.2, 0.3, 0.5, 1} {
			pr := on
			pr.Share, pr.Window = s, w
			out = append(out, pr)
		}
	}
	if !on.WholePages {
		return out
	}
	for _, ok := range []bool{false, true} {
		for _, b := range []int{0, 3, 5, 8, 12, 20, 50} {
			for _, wt := range []float64{0.5, 1, 1.5, 2, 3} {
				pr := on
				pr.Bring, pr.WholeWeight, pr.Okapi = b, wt, ok
				out = append(out, pr)
			}
		}
	}
	return out
}

func printPages(out io.Writer, rep pagesReport, byFile bool) error {
	fmt.Fprintf(out, "%s, split %s: %d questions (%d without answer pages, not scored by page); model %s\n", rep.Questions, rep.Split, rep.Count, rep.Unanswerable, rep.Model)
	if rep.AppModels != "" {
		fmt.Fprintf(out, "app rows: %s\n", rep.AppModels)
	}
	if s := rep.Summaries; s != nil {
		fmt.Fprintf(out, "summary list: %d of %d passages summarised (%s%s), %d refused\n", s.Summarized, s.Passages, s.How, strings.TrimSuffix(" "+s.Model, " "), s.Refused)
	}
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "search\tpage ranking\thit@1\thit@5\thit@8\tMRR\tsources@8\tpassage hit@5")
	for _, r := range rep.Rows {
		s := r.Score
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%d/%d\n", r.Search, r.Pages, s.PageHit1, s.PageHit5, s.PageHit8, s.PageMRR, s.Sources8, s.Hits, s.Questions)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out, "\nby kind (hit@1 / hit@5 / hit@8 over distinct pages):")
	for _, r := range rep.Rows {
		fmt.Fprintf(out, "  %-18s %-36s", r.Search, r.Pages)
		for _, k := range r.ByKind {
			fmt.Fprintf(out, " %s(%d) %.2f/%.2f/%.2f", k.Kind, k.Questions, k.PageHit1, k.PageHit5, k.PageHit8)
		}
		fmt.Fprintln(out)
	}
	if byFile {
		fmt.Fprintln(out, "\nby file (hit@1 / hit@5 / hit@8 over distinct pages):")
		for _, r := range rep.Rows {
			fmt.Fprintf(out, "  %s, %s\n", r.Search, r.Pages)
			for _, f := range r.ByFile {
				fmt.Fprintf(out, "    %-58s (%2d) %.2f/%.2f/%.2f\n", f.File, f.Questions, f.PageHit1, f.PageHit5, f.PageHit8)
			}
		}
	}
	fmt.Fprintln(out, "\nsources@K (an answer page among the pages of the first K passages), and packed to a budget:")
	for _, r := range rep.Rows {
		fmt.Fprintf(out, "  %-18s %-36s %s\n", r.Search, r.Pages, sourcesSweep(r.Results))
	}
	fmt.Fprintln(out, "\nanswer pages found that stand by a table's, figure's or formula's passage (their first passage in the ranking):")
	for _, r := range rep.Rows {
		fmt.Fprintf(out, "  %-18s %-36s %.3f of %d\n", r.Search, r.Pages, r.Score.ByRegion, r.Score.Found)
	}
	fmt.Fprintln(out, "\nmissed at sources@8:")
	for _, r := range rep.Rows {
		fmt.Fprintf(out, "  %s, %s: %v\n", r.Search, r.Pages, r.Misses)
	}
	if a := rep.Abstain; a != nil {
		fmt.Fprintf(out, "\nabstain rule (best BM25 below %.2f, default mode): abstained on %d of %d unanswerable questions, wrongly on %d of %d answerable\n",
			a.MinBM25, a.Abstained, a.Unanswerable, a.WronglyAbstained, a.Answerable)
	}
	_, err := fmt.Fprintf(out, "\ntotal %.0f s\n", rep.Seconds)
	return err
}

// sourcesSweep scores sources@K for K = 6..12 and prompts packed by
// length: passages in rank order while their total stays within a budget
// of runes (eval.PackCount), with no minimum and with at least 8, next to
// the mean length of the fixed 8 (the prompt as it is).
func sourcesSweep(rs []eval.PageResult) string {
	if len(rs) == 0 {
		return ""
	}
	var b strings.Builder
	n := float64(len(rs))
	share := func(in func(r eval.PageResult) int) float64 {
		hit := 0
		for _, r := range rs {
			if r.SourceRank >= 1 && r.SourceRank <= in(r) {
				hit++
			}
		}
		return float64(hit) / n
	}
	for k := 6; k <= 12; k++ {
		fmt.Fprintf(&b, "@%d %.3f  ", k, share(func(eval.PageResult) int { return k }))
	}
	runes8 := 0
	for _, r := range rs {
		runes8 += r.Runes8
	}
	known := !slices.ContainsFunc(rs, func(r eval.PageResult) bool { return len(r.HitRunes) == 0 || slices.Contains(r.HitRunes, 0) })
	if !known { // the lengths of the passages are not known (pages of a baseline)
		return b.String()
	}
	fmt.Fprintf(&b, "(the 8: %.0f runes)\n     packed:", float64(runes8)/n)
	for _, least := range []int{0, eval.SourcesCutoff} {
		for _, budget := range []int{4400, 5200, 6000, eval.SourceBudget} {
			passages, runes := 0, 0
			count := func(r eval.PageResult) int { return eval.PackCount(r.HitRunes, least, budget) }
			for _, r := range rs {
				k := count(r)
				passages += k
				for _, x := range r.HitRunes[:k] {
					runes += x
				}
			}
			fmt.Fprintf(&b, " [>=%d, %d: %.3f, %.1f passages, %.0f runes]", least, budget, share(count), float64(passages)/n, float64(runes)/n)
		}
	}
	return b.String()
}
