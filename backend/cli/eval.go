package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"vika/backend/corpus"
	"vika/backend/embed"
	"vika/backend/eval"
	"vika/backend/index"
	"vika/backend/retrieve"
)

const evalUsage = `Usage:
  vika eval beir DIR [--split test|train] [--mode all|bm25|dense|hybrid] [--json]
                     [--fusion convex|rrf] [--dense-weight W] [--norm minmax|zscore]
                     [--depth N] [--prf-docs N --prf-weight B] [--sweep] [--workers N]
  vika eval latency DIR [--chunks N] [--queries N] [--mode hybrid] [--json] [--workers N]

beir indexes a BEIR dataset (title and text of each document) once, runs the
split's queries in each mode and prints nDCG@10, Recall@100 and MRR@10 with
index and query timings. The fusion flags override the embedding model's
measured profile; --sweep also scores hybrid mode over dense weights 0..1
(tune on train, report on test).

latency indexes N chunks cut from the dataset's documents (sentence-aligned
halves, repeated if needed) and reports the retrieval latency of each query
(embed the query, dense and BM25 search, fuse; no rerank) as p50 and p95.`

func runEval(ctx context.Context, args []string, out, errOut io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(errOut, evalUsage)
		if len(args) == 0 {
			return fmt.Errorf("%w: eval needs a benchmark (beir or latency)", errUsage)
		}
		return nil
	}
	switch args[0] {
	case "beir":
		return runEvalBEIR(ctx, args[1:], out, errOut)
	case "latency":
		return runEvalLatency(ctx, args[1:], out, errOut)
	default:
		return fmt.Errorf("%w: unknown benchmark %q (want beir or latency)", errUsage, args[0])
	}
}

// profileFlags are the flags that override the retrieval profile.
type profileFlags struct {
	fusion, norm                string
	denseWeight, prfWeight      float64
	depth, prfDocs              int
	setWeight, setPRF, setDepth bool
}

func (p *profileFlags) register(fs interface {
	StringVar(*string, string, string, string)
	Func(string, string, func(string) error)
}) {
	fs.StringVar(&p.fusion, "fusion", "", "hybrid fusion: convex or rrf (default: the model's profile)")
	fs.StringVar(&p.norm, "norm", "", "convex score normalisation: minmax or zscore")
	fs.Func("dense-weight", "weight of the dense side in hybrid fusion, 0..1", func(s string) error {
		w, err := strconv.ParseFloat(s, 64)
		if err != nil || w < 0 || w > 1 {
			return fmt.Errorf("want a number in [0, 1]")
		}
		p.denseWeight, p.setWeight = w, true
		return nil
	})
	fs.Func("depth", "candidates per retriever in hybrid mode", func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return fmt.Errorf("want a positive integer")
		}
		p.depth, p.setDepth = n, true
		return nil
	})
	fs.Func("prf-docs", "dense pseudo-relevance feedback: chunks averaged (0: off)", func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return fmt.Errorf("want a non-negative integer")
		}
		p.prfDocs, p.setPRF = n, true
		return nil
	})
	fs.Func("prf-weight", "dense pseudo-relevance feedback: weight of the feedback vector", func(s string) error {
		w, err := strconv.ParseFloat(s, 64)
		if err != nil || w < 0 {
			return fmt.Errorf("want a non-negative number")
		}
		p.prfWeight, p.setPRF = w, true
		return nil
	})
}

// apply returns prof with the flags' overrides.
func (p *profileFlags) apply(prof retrieve.Profile) (retrieve.Profile, error) {
	switch retrieve.Fusion(p.fusion) {
	case "":
	case retrieve.FusionConvex, retrieve.FusionRRF:
		prof.Fusion = retrieve.Fusion(p.fusion)
	default:
		return prof, fmt.Errorf("%w: --fusion %q: want convex or rrf", errUsage, p.fusion)
	}
	switch retrieve.Norm(p.norm) {
	case "":
	case retrieve.NormMinMax, retrieve.NormZScore:
		prof.Norm = retrieve.Norm(p.norm)
	default:
		return prof, fmt.Errorf("%w: --norm %q: want minmax or zscore", errUsage, p.norm)
	}
	if p.setWeight {
		prof.DenseWeight = p.denseWeight
	}
	if p.setDepth {
		prof.Depth = p.depth
	}
	if p.setPRF {
		prof.PRF = retrieve.PRF{Docs: p.prfDocs, Weight: p.prfWeight}
	}
	return prof, nil
}

// defaultWorkers is the default of --workers: one embedding worker per
// core, up to four (an evaluation is a batch job).
func defaultWorkers() int { return min(runtime.NumCPU(), 4) }

// evalModes parses --mode: all, or one mode.
func evalModes(s string) ([]retrieve.Mode, error) {
	if s == "all" {
		return retrieve.Modes, nil
	}
	m, err := retrieve.ParseMode(s)
	if err != nil {
		return nil, fmt.Errorf("%w: --mode: %v", errUsage, err)
	}
	return []retrieve.Mode{m}, nil
}

// needsEmbedder says whether any of modes embeds.
func needsEmbedder(modes []retrieve.Mode) bool {
	for _, m := range modes {
		if m != retrieve.ModeBM25 {
			return true
		}
	}
	return false
}

// evalIndex is a retriever over fresh in-memory indexes.
type evalIndex struct {
	r   *retrieve.Retriever
	lex *index.Lexical
	emb embed.Embedder
}

func (e *evalIndex) Close() {
	e.lex.Close()
	if e.emb != nil {
		e.emb.Close()
	}
}

// newEvalIndex loads the default embedder if withEmbedder and returns an
// empty retriever, its profile overridden by flags.
func newEvalIndex(withEmbedder bool, flags *profileFlags, workers int) (*evalIndex, error) {
	lex, err := index.NewLexical()
	if err != nil {
		return nil, err
	}
	e := &evalIndex{lex: lex}
	var dense *index.Dense
	if withEmbedder {
		o, err := embed.DefaultUSELiteOptions()
		if err != nil {
			lex.Close()
			return nil, err
		}
		use, err := embed.LoadUSELite(o)
		if err != nil {
			lex.Close()
			return nil, err
		}
		e.emb = use
		dense = index.NewDense(use.Dim())
	}
	r, err := retrieve.New(lex, dense, e.emb, retrieve.Options{EmbedWorkers: workers})
	if err != nil {
		e.Close()
		return nil, err
	}
	prof, err := flags.apply(r.Profile())
	if err != nil {
		e.Close()
		return nil, err
	}
	e.r = r.WithProfile(prof)
	return e, nil
}

// indexTimes are the seconds spent building each index.
type indexTimes struct {
	Lexical float64 `json:"lexical_s"`
	Embed   float64 `json:"embed_s"`
}

// add embeds (with progress on errOut) and indexes chunks.
func (e *evalIndex) add(ctx context.Context, chunks []corpus.Chunk, errOut io.Writer) (indexTimes, error) {
	var t indexTimes
	start := time.Now()
	next := 0
	vecs, err := e.r.Embed(ctx, chunks, func(done, total int) {
		if done >= next || done == total {
			el := time.Since(start).Seconds()
			fmt.Fprintf(errOut, "embedding %d/%d chunks (%.0f%%, %.0f/s, %.0f s)\n", done, total, 100*float64(done)/float64(total), float64(done)/el, el)
			next = done + total/10
		}
	})
	if err != nil {
		return t, err
	}
	t.Embed = time.Since(start).Seconds()
	start = time.Now()
	if err := e.r.AddEmbedded(ctx, chunks, vecs); err != nil {
		return t, err
	}
	t.Lexical = time.Since(start).Seconds()
	return t, nil
}

// docChunks makes one chunk of each BEIR document: title, blank line, text.
func docChunks(docs []eval.Doc) []corpus.Chunk {
	out := make([]corpus.Chunk, len(docs))
	for i, d := range docs {
		out[i] = corpus.Chunk{ID: d.ID, DocID: d.ID, Lang: "en", Text: strings.TrimSpace(d.Title + "\n\n" + d.Text)}
	}
	return out
}

// modeResult is one line of the report.
type modeResult struct {
	Mode string `json:"mode"`
	eval.Metrics
	P50ms float64 `json:"query_p50_ms"`
	P95ms float64 `json:"query_p95_ms"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// runQueries searches every query in mode and scores the run.
func runQueries(ctx context.Context, r *retrieve.Retriever, ds *eval.Dataset, mode retrieve.Mode, name string) (modeResult, error) {
	run := eval.Run{}
	var lat []time.Duration
	for _, q := range ds.Queries {
		res, err := r.Search(ctx, q.Text, retrieve.SearchOptions{Mode: mode, K: eval.RecallCutoff})
		if err != nil {
			return modeResult{}, fmt.Errorf("query %s: %w", q.ID, err)
		}
		lat = append(lat, res.Stats.Latency)
		ids := make([]string, len(res.Hits))
		for i, h := range res.Hits {
			ids[i] = h.ChunkID
		}
		run[q.ID] = ids
	}
	return modeResult{Mode: name, Metrics: eval.Evaluate(run, ds.Qrels),
		P50ms: ms(eval.Percentile(lat, 50)), P95ms: ms(eval.Percentile(lat, 95))}, nil
}

type beirReport struct {
	Dataset   string            `json:"dataset"`
	Split     string            `json:"split"`
	Documents int               `json:"documents"`
	Queries   int               `json:"queries"`
	Model     string            `json:"model,omitempty"`
	Profile   *retrieve.Profile `json:"profile,omitempty"`
	Index     indexTimes        `json:"index"`
	Modes     []modeResult      `json:"modes"`
	Sweep     []modeResult      `json:"sweep,omitempty"`
	Seconds   float64           `json:"seconds"`
}

func runEvalBEIR(ctx context.Context, args []string, out, errOut io.Writer) error {
	start := time.Now()
	fs := newFlagSet("eval beir", errOut)
	split := fs.String("split", "test", "qrels split to evaluate (test, train, ...)")
	modeFlag := fs.String("mode", "all", "all, bm25, dense or hybrid")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	sweep := fs.Bool("sweep", false, "also score hybrid mode over dense weights 0, 0.05, ..., 1")
	workers := fs.Int("workers", defaultWorkers(), "chunk groups embedded at once")
	var pf profileFlags
	pf.register(fs)
	fs.Usage = func() { fmt.Fprintln(errOut, evalUsage); fs.PrintDefaults() }
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return fmt.Errorf("%w: want one dataset directory", errUsage)
	}
	modes, err := evalModes(*modeFlag)
	if err != nil {
		return err
	}
	ds, err := eval.LoadBEIR(rest[0], *split)
	if err != nil {
		return err
	}
	fmt.Fprintf(errOut, "%s: %d documents, %d %s queries\n", rest[0], len(ds.Corpus), len(ds.Queries), *split)
	ix, err := newEvalIndex(needsEmbedder(modes) || *sweep, &pf, *workers)
	if err != nil {
		return err
	}
	defer ix.Close()
	rep := beirReport{Dataset: rest[0], Split: *split, Documents: len(ds.Corpus), Queries: len(ds.Queries)}
	if ix.emb != nil {
		prof := ix.r.Profile()
		rep.Model, rep.Profile = ix.emb.Name(), &prof
	}
	if rep.Index, err = ix.add(ctx, docChunks(ds.Corpus), errOut); err != nil {
		return err
	}
	for _, m := range modes {
		res, err := runQueries(ctx, ix.r, ds, m, string(m))
		if err != nil {
			return err
		}
		rep.Modes = append(rep.Modes, res)
	}
	if *sweep {
		for i := 0; i <= 20; i++ {
			prof := ix.r.Profile()
			prof.DenseWeight = float64(i) / 20
			name := fmt.Sprintf("hybrid w=%.2f", prof.DenseWeight)
			res, err := runQueries(ctx, ix.r.WithProfile(prof), ds, retrieve.ModeHybrid, name)
			if err != nil {
				return err
			}
			rep.Sweep = append(rep.Sweep, res)
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return printBEIR(out, rep)
}

func printBEIR(out io.Writer, rep beirReport) error {
	fmt.Fprintf(out, "BEIR %s, split %s: %d documents, %d queries\n", rep.Dataset, rep.Split, rep.Documents, rep.Queries)
	if p := rep.Profile; p != nil {
		fmt.Fprintf(out, "model %s; hybrid: %s, dense weight %.2f, norm %s, depth %d, passages of %d tokens", rep.Model, p.Fusion, p.DenseWeight, p.Norm, p.Depth, p.Passage.MaxTokens)
		if p.PRF.Docs > 0 {
			fmt.Fprintf(out, ", PRF %d docs x %.2f", p.PRF.Docs, p.PRF.Weight)
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "index: BM25 %.1f s, embeddings %.1f s\n\n", rep.Index.Lexical, rep.Index.Embed)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "mode\tnDCG@10\tRecall@100\tMRR@10\tquery p50 ms\tquery p95 ms")
	for _, m := range append(rep.Modes, rep.Sweep...) {
		fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%.4f\t%.1f\t%.1f\n", m.Mode, m.NDCG10, m.Recall100, m.MRR10, m.P50ms, m.P95ms)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(out, "\ntotal %.0f s\n", rep.Seconds)
	return err
}

// latencyChunks cuts docs into sentence-aligned halves, repeating them
// under new ids until there are n chunks.
func latencyChunks(docs []eval.Doc, n int) []corpus.Chunk {
	var halves []string
	for _, d := range docs {
		s := retrieve.Sentences(d.Title + "\n\n" + d.Text)
		mid := (len(s) + 1) / 2
		for _, part := range [][]string{s[:mid], s[mid:]} {
			if len(part) > 0 {
				halves = append(halves, strings.Join(part, " "))
			}
		}
	}
	out := make([]corpus.Chunk, 0, n)
	for i := 0; len(out) < n && len(halves) > 0; i++ {
		id := fmt.Sprintf("c%d", i)
		out = append(out, corpus.Chunk{ID: id, DocID: fmt.Sprintf("d%d", i/2), Lang: "en", Text: halves[i%len(halves)]})
	}
	return out
}

type latencyReport struct {
	Dataset   string     `json:"dataset"`
	Chunks    int        `json:"chunks"`
	Queries   int        `json:"queries"`
	Mode      string     `json:"mode"`
	Index     indexTimes `json:"index"`
	P50ms     float64    `json:"p50_ms"`
	P95ms     float64    `json:"p95_ms"`
	MaxMs     float64    `json:"max_ms"`
	EmbedMs   float64    `json:"embed_p50_ms"`
	DenseMs   float64    `json:"dense_p50_ms"`
	LexicalMs float64    `json:"lexical_p50_ms"`
	FuseMs    float64    `json:"fuse_p50_ms"`
}

func runEvalLatency(ctx context.Context, args []string, out, errOut io.Writer) error {
	fs := newFlagSet("eval latency", errOut)
	n := fs.Int("chunks", 10000, "chunks in the session")
	nq := fs.Int("queries", 300, "queries to time (the test split's, repeated if needed)")
	modeFlag := fs.String("mode", "hybrid", "bm25, dense or hybrid")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	workers := fs.Int("workers", defaultWorkers(), "chunk groups embedded at once")
	fs.Usage = func() { fmt.Fprintln(errOut, evalUsage); fs.PrintDefaults() }
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 || *n < 1 || *nq < 1 {
		return fmt.Errorf("%w: want one dataset directory, --chunks and --queries >= 1", errUsage)
	}
	mode, err := retrieve.ParseMode(*modeFlag)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	ds, err := eval.LoadBEIR(rest[0], "test")
	if err != nil {
		return err
	}
	ix, err := newEvalIndex(mode != retrieve.ModeBM25, &profileFlags{}, *workers)
	if err != nil {
		return err
	}
	defer ix.Close()
	chunks := latencyChunks(ds.Corpus, *n)
	rep := latencyReport{Dataset: rest[0], Chunks: len(chunks), Queries: *nq, Mode: string(mode)}
	if rep.Index, err = ix.add(ctx, chunks, errOut); err != nil {
		return err
	}
	const warmup = 10
	var total, emb, dense, lex, fuse []time.Duration
	for i := 0; i < *nq+warmup; i++ {
		res, err := ix.r.Search(ctx, ds.Queries[i%len(ds.Queries)].Text, retrieve.SearchOptions{Mode: mode, K: 10})
		if err != nil {
			return err
		}
		if i < warmup {
			continue
		}
		s := res.Stats
		total, emb, dense, lex, fuse = append(total, s.Latency), append(emb, s.Embed), append(dense, s.Dense), append(lex, s.Lexical), append(fuse, s.Fuse)
	}
	rep.P50ms, rep.P95ms, rep.MaxMs = ms(eval.Percentile(total, 50)), ms(eval.Percentile(total, 95)), ms(eval.Percentile(total, 100))
	rep.EmbedMs, rep.DenseMs = ms(eval.Percentile(emb, 50)), ms(eval.Percentile(dense, 50))
	rep.LexicalMs, rep.FuseMs = ms(eval.Percentile(lex, 50)), ms(eval.Percentile(fuse, 50))
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	_, err = fmt.Fprintf(out, "%s retrieval latency, %d chunks, %d queries (k=10, no rerank):\n"+
		"p50 %.1f ms, p95 %.1f ms, max %.1f ms\n"+
		"parts (p50): embed query %.1f ms, dense %.1f ms, BM25 %.1f ms (concurrent with embed+dense), fuse %.1f ms\n"+
		"index: BM25 %.1f s, embeddings %.1f s\n",
		mode, rep.Chunks, rep.Queries, rep.P50ms, rep.P95ms, rep.MaxMs,
		rep.EmbedMs, rep.DenseMs, rep.LexicalMs, rep.FuseMs, rep.Index.Lexical, rep.Index.Embed)
	return err
}
