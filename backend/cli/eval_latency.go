package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"vika/backend/corpus"
	"vika/backend/eval"
	"vika/backend/rerank"
	"vika/backend/retrieve"
)

// latencyChunks cuts docs into sentence-aligned halves, repeating them
// under new ids until there are n chunks; the two halves of a document
// are its page 1, so that the page ranking has pages to group.
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
		out = append(out, corpus.Chunk{ID: id, DocID: fmt.Sprintf("d%d", i/2), Page: 1, Lang: "en", Text: halves[i%len(halves)]})
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
	Reranker  string     `json:"reranker"`
	RerankMs  float64    `json:"rerank_p50_ms"`
	RerankP95 float64    `json:"rerank_p95_ms"`
	// The same queries, timed in turn with the page ranking off (the
	// search before retrieve.PageRanking).
	PagesOffP50ms float64 `json:"pages_off_p50_ms"`
	PagesOffP95ms float64 `json:"pages_off_p95_ms"`
}

func runEvalLatency(ctx context.Context, args []string, out, errOut io.Writer) error {
	fs := newFlagSet("eval latency", errOut)
	n := fs.Int("chunks", 10000, "chunks in the session")
	nq := fs.Int("queries", 300, "queries to time (the test split's, repeated if needed)")
	modeFlag := fs.String("mode", "hybrid", "bm25, dense or hybrid")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	workers := fs.Int("workers", defaultWorkers(), "chunk groups embedded at once")
	rerankDepth := fs.Int("rerank-depth", 0, "rerank the top N with the installed cross-encoder (0: off)")
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
	rep := latencyReport{Dataset: rest[0], Chunks: len(chunks), Queries: *nq, Mode: string(mode), Reranker: rerank.None}
	rr, closeRR, err := openReranker(*rerankDepth, chunks)
	if err != nil {
		return err
	}
	defer closeRR()
	if rr != nil {
		rep.Reranker = rerank.Label(rr.r)
	}
	if rep.Index, err = ix.add(ctx, chunks, errOut); err != nil {
		return err
	}
	const warmup = 10
	var total, emb, dense, lex, fuse, rer, offTotal []time.Duration
	off := ix.r.WithPages(retrieve.PageRanking{})
	for i := 0; i < *nq+warmup; i++ {
		o := retrieve.SearchOptions{Mode: mode, K: 10}
		rr.apply(&o)
		q := ds.Queries[i%len(ds.Queries)].Text
		offRes, err := off.Search(ctx, q, o)
		if err != nil {
			return err
		}
		res, err := ix.r.Search(ctx, q, o)
		if err != nil {
			return err
		}
		if i < warmup {
			continue
		}
		offTotal = append(offTotal, offRes.Stats.Latency)
		s := res.Stats
		total, emb, dense, lex, fuse = append(total, s.Latency), append(emb, s.Embed), append(dense, s.Dense), append(lex, s.Lexical), append(fuse, s.Fuse)
		rer = append(rer, s.Rerank)
	}
	rep.P50ms, rep.P95ms, rep.MaxMs = ms(eval.Percentile(total, 50)), ms(eval.Percentile(total, 95)), ms(eval.Percentile(total, 100))
	rep.EmbedMs, rep.DenseMs = ms(eval.Percentile(emb, 50)), ms(eval.Percentile(dense, 50))
	rep.LexicalMs, rep.FuseMs = ms(eval.Percentile(lex, 50)), ms(eval.Percentile(fuse, 50))
	rep.RerankMs, rep.RerankP95 = ms(eval.Percentile(rer, 50)), ms(eval.Percentile(rer, 95))
	rep.PagesOffP50ms, rep.PagesOffP95ms = ms(eval.Percentile(offTotal, 50)), ms(eval.Percentile(offTotal, 95))
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	_, err = fmt.Fprintf(out, "%s retrieval latency, %d chunks, %d queries (k=10, reranker %s):\n"+
		"p50 %.1f ms, p95 %.1f ms, max %.1f ms\n"+
		"parts (p50): embed query %.1f ms, dense %.1f ms, BM25 %.1f ms (concurrent with embed+dense), fuse %.1f ms, rerank %.1f ms (p95 %.1f)\n"+
		"without the page ranking (same queries, in turn): p50 %.1f ms, p95 %.1f ms\n"+
		"index: BM25 %.1f s, embeddings %.1f s\n",
		mode, rep.Chunks, rep.Queries, rep.Reranker, rep.P50ms, rep.P95ms, rep.MaxMs,
		rep.EmbedMs, rep.DenseMs, rep.LexicalMs, rep.FuseMs, rep.RerankMs, rep.RerankP95,
		rep.PagesOffP50ms, rep.PagesOffP95ms, rep.Index.Lexical, rep.Index.Embed)
	return err
}
