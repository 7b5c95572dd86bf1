package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"text/tabwriter"
	"time"

	"vika/backend/corpus"
	"vika/backend/embed"
	"vika/backend/eval"
	"vika/backend/index"
	"vika/backend/models"
	"vika/backend/rerank"
	"vika/backend/retrieve"
)

const evalUsage = `Usage:
  vika eval beir DIR [--split test|train] [--mode all|bm25|dense|hybrid] [--json]
                     [--fusion convex|rrf] [--dense-weight W] [--norm minmax|zscore]
                     [--depth N] [--prf-docs N --prf-weight B] [--sweep] [--workers N]
                     [--rerank-depth N]
  vika eval latency DIR [--chunks N] [--queries N] [--mode hybrid] [--json] [--workers N]
                        [--rerank-depth N]
  vika eval pages DIR [--questions FILE] [--mode all|bm25|dense|hybrid|default]
                      [--split all|tune|test] [--cache DIR] [--json] (vika eval pages -h)

beir indexes a BEIR dataset (title and text of each document) once, runs the
split's queries in each mode and prints nDCG@10, Recall@100, MRR@10 and
Recall@20 (the share of answers a reranker of the top
20, retrieve.DefaultRerankDepth, could reach) with
index and query timings. The embedding model is $VIKA_EMBED_MODEL_EN's
(default use-lite). The fusion flags override the model's measured profile;
--sweep also scores hybrid mode over dense weights 0..1 (tune on train,
report on test). --rerank-depth N reranks the top N of every mode with the
installed cross-encoder (vika models download).

latency indexes N chunks cut from the dataset's documents (sentence-aligned
halves, repeated if needed) and reports the retrieval latency of each query
(embed the query, dense and BM25 search, fuse, and rerank with
--rerank-depth) as p50 and p95.`

func runEval(ctx context.Context, args []string, out, errOut io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(errOut, evalUsage)
		if len(args) == 0 {
			return fmt.Errorf("%w: eval needs a benchmark (beir, latency or pages)", errUsage)
		}
		return nil
	}
	switch args[0] {
	case "beir":
		return runEvalBEIR(ctx, args[1:], out, errOut)
	case "latency":
		return runEvalLatency(ctx, args[1:], out, errOut)
	case "pages":
		return runEvalPages(ctx, args[1:], out, errOut)
	default:
		return fmt.Errorf("%w: unknown benchmark %q (want beir, latency or pages)", errUsage, args[0])
	}
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
	if e.r != nil {
		e.r.Close()
	}
	e.lex.Close()
	if e.emb != nil {
		e.emb.Close()
	}
}

// newEvalIndex loads the English embedder of the environment
// (models.Embedder) if withEmbedder and returns an empty retriever, its
// profile overridden by flags.
func newEvalIndex(withEmbedder bool, flags *profileFlags, workers int) (*evalIndex, error) {
	lex, err := index.NewLexical()
	if err != nil {
		return nil, err
	}
	e := &evalIndex{lex: lex}
	var dense *index.Dense
	if withEmbedder {
		c, err := models.Embedder(true)
		if err != nil {
			lex.Close()
			return nil, err
		}
		emb, err := embed.Open(models.Root(), c)
		if err != nil {
			lex.Close()
			return nil, err
		}
		e.emb = emb
		dense = index.NewDense(emb.Dim())
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

// modeResult is one line of the report.
type modeResult struct {
	Mode string `json:"mode"`
	eval.Metrics
	RecallRerank float64 `json:"recall_at_rerank_depth"` // Recall@DefaultRerankDepth
	P50ms        float64 `json:"query_p50_ms"`
	P95ms        float64 `json:"query_p95_ms"`
}

// reranking is the reranker of an evaluation: nil for none.
type reranking struct {
	r     retrieve.Reranker
	depth int
	texts map[string]string // passage of each chunk id
}

func (rr *reranking) apply(o *retrieve.SearchOptions) {
	if rr == nil || rr.r == nil {
		return
	}
	o.Rerank, o.RerankDepth = rr.r, rr.depth
	o.Passages = retrieve.PassagesFunc(func(_ context.Context, ids []string) (map[string]string, error) {
		out := make(map[string]string, len(ids))
		for _, id := range ids {
			if t, ok := rr.texts[id]; ok {
				out[id] = t
			}
		}
		return out, nil
	})
}

// openReranker loads the installed cross-encoder for --rerank-depth n > 0
// (nil for 0), over the passages of chunks.
func openReranker(n int, chunks []corpus.Chunk) (*reranking, func(), error) {
	if n <= 0 {
		return nil, func() {}, nil
	}
	r, err := rerank.Open(models.Root())
	if err != nil {
		return nil, nil, err
	}
	if r == nil {
		return nil, nil, fmt.Errorf("--rerank-depth: no cross-encoder is installed: run `vika models download %s`", models.Rerankers()[0].Name)
	}
	texts := make(map[string]string, len(chunks))
	for _, c := range chunks {
		texts[c.ID] = c.Text
	}
	closeFn := func() { r.Close() }
	return &reranking{r: r, depth: n, texts: texts}, closeFn, nil
}

// recallCut is the depth of the Recall@N column: DefaultRerankDepth.
const recallCut = retrieve.DefaultRerankDepth

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// runQueries searches every query in mode and scores the run.
func runQueries(ctx context.Context, r *retrieve.Retriever, ds *eval.Dataset, mode retrieve.Mode, name string, rr *reranking) (modeResult, error) {
	run, cut := eval.Run{}, eval.Run{}
	var lat []time.Duration
	for _, q := range ds.Queries {
		o := retrieve.SearchOptions{Mode: mode, K: eval.RecallCutoff}
		rr.apply(&o)
		res, err := r.Search(ctx, q.Text, o)
		if err != nil {
			return modeResult{}, fmt.Errorf("query %s: %w", q.ID, err)
		}
		lat = append(lat, res.Stats.Latency)
		ids := make([]string, len(res.Hits))
		for i, h := range res.Hits {
			ids[i] = h.ChunkID
		}
		run[q.ID], cut[q.ID] = ids, ids[:min(recallCut, len(ids))]
	}
	return modeResult{Mode: name, Metrics: eval.Evaluate(run, ds.Qrels), RecallRerank: eval.Evaluate(cut, ds.Qrels).Recall100,
		P50ms: ms(eval.Percentile(lat, 50)), P95ms: ms(eval.Percentile(lat, 95))}, nil
}

type beirReport struct {
	Dataset   string            `json:"dataset"`
	Split     string            `json:"split"`
	Documents int               `json:"documents"`
	Queries   int               `json:"queries"`
	Model     string            `json:"model,omitempty"`
	Reranker  string            `json:"reranker"`
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
	rerankDepth := fs.Int("rerank-depth", 0, "rerank the top N of each mode with the installed cross-encoder (0: off)")
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
	chunks := eval.Chunks(ds.Corpus)
	rr, closeRR, err := openReranker(*rerankDepth, chunks)
	if err != nil {
		return err
	}
	defer closeRR()
	rep.Reranker = rerank.None
	if rr != nil {
		rep.Reranker = rerank.Label(rr.r)
	}
	if rep.Index, err = ix.add(ctx, chunks, errOut); err != nil {
		return err
	}
	for _, m := range modes {
		res, err := runQueries(ctx, ix.r, ds, m, string(m), rr)
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
			res, err := runQueries(ctx, ix.r.WithProfile(prof), ds, retrieve.ModeHybrid, name, rr)
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
	fmt.Fprintf(out, "reranker: %s\nindex: BM25 %.1f s, embeddings %.1f s\n\n", rep.Reranker, rep.Index.Lexical, rep.Index.Embed)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "mode\tnDCG@10\tRecall@100\tMRR@10\tRecall@%d\tquery p50 ms\tquery p95 ms\n", recallCut)
	for _, m := range append(rep.Modes, rep.Sweep...) {
		fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%.4f\t%.4f\t%.1f\t%.1f\n", m.Mode, m.NDCG10, m.Recall100, m.MRR10, m.RecallRerank, m.P50ms, m.P95ms)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(out, "\ntotal %.0f s\n", rep.Seconds)
	return err
}
