package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"vika/backend/corpus"
	"vika/backend/embed"
	"vika/backend/engine"
	"vika/backend/eval"
	"vika/backend/index"
	"vika/backend/ingest"
	"vika/backend/kept"
	"vika/backend/ocr"
	"vika/backend/retrieve"
)

// pagesDoc is one PDF of a page evaluation: what ingest made of it, its
// chunks' vectors and its own indexes (each question searches its PDF
// alone, as in a session holding that document).
type pagesDoc struct {
	res   ingest.Result
	vecs  [][]float32 // nil without an embedder
	lex   *index.Lexical
	whole *index.Lexical // one entry per page: the whole-page BM25 baseline
	okapi *index.Okapi   // the same pages, scored by the textbook BM25
	r     *retrieve.Retriever
}

func (d *pagesDoc) close() {
	if d.r != nil {
		d.r.Close()
	}
	for _, l := range []*index.Lexical{d.lex, d.whole} {
		if l != nil {
			l.Close()
		}
	}
}

// pagesCache is the cached outcome of ingesting and embedding one PDF,
// keyed by the document id (the SHA-256 of its bytes) and the model, in
// package kept's encoding (the app's document cache and course files').
type pagesCache struct {
	Document kept.Document
	Model    string
	Vectors  kept.Vectors // Vecs only: the page evaluation embeds no figure
}

// cachePath is where dir caches file; "" without a cache. The name
// carries the pipeline's version, as the app's document cache does: a
// cache made by an older chunker or reader is not read as this one's.
func cachePath(dir, file, docID, model string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, fmt.Sprintf("%s.%s.%s.%s.json", file, docID[:12], engine.PipelineVersion, model))
}

func readCache(path string) (pagesCache, bool) {
	var c pagesCache
	if path == "" {
		return c, false
	}
	return c, kept.ReadFile(path, &c) == nil
}

func writeCache(path string, c pagesCache) error {
	if path == "" {
		return nil
	}
	return kept.WriteFile(path, c)
}

// loadPagesDocs ingests (with OCR) and embeds the PDFs of dir that the
// questions name, reusing cacheDir's copies of earlier runs, and indexes
// each one alone.
func loadPagesDocs(ctx context.Context, dir, cacheDir string, given map[string]ingest.Result, qs []eval.PageQuestion, emb embed.Embedder, opts retrieve.Options, regions bool, errOut io.Writer) (map[string]*pagesDoc, error) {
	var files []string
	for _, q := range qs {
		if !slices.Contains(files, q.File) {
			files = append(files, q.File)
		}
	}
	slices.Sort(files)
	model := "bm25"
	if emb != nil {
		model = emb.Name()
	}
	if regions {
		model += ".regions" // the cache key: region passages change the chunks
	}
	var pool *ocr.Pool
	defer func() {
		if pool != nil {
			pool.Close()
		}
	}()
	docs := map[string]*pagesDoc{}
	fail := func(err error) (map[string]*pagesDoc, error) {
		for _, d := range docs {
			d.close()
		}
		return nil, err
	}
	for _, file := range files {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			return fail(fmt.Errorf("eval pages: %w", err))
		}
		path := cachePath(cacheDir, file, ingest.DocID(data), model)
		c, ok := readCache(path)
		if given != nil {
			res, found := given[file]
			if !found || res.Doc.ID != ingest.DocID(data) {
				return fail(fmt.Errorf("eval pages: %s: not in the course, or other bytes", file))
			}
			c, ok, path = pagesCache{Document: kept.NewDocument(res), Model: model}, true, ""
		}
		if !ok {
			if pool == nil {
				if pool, err = ocr.NewPool(ocr.Config{}); err != nil {
					return fail(fmt.Errorf("eval pages: the scanned pages need Tesseract: %w", err))
				}
			}
			fmt.Fprintf(errOut, "ingesting %s\n", file)
			res, err := ingest.Run(ctx, file, data, ingest.Options{OCR: pool, Regions: regions}, nil)
			if err != nil {
				return fail(fmt.Errorf("%s: %w", file, err))
			}
			c = pagesCache{Document: kept.NewDocument(res), Model: model}
		}
		d := &pagesDoc{res: c.Document.Result(), vecs: c.Vectors.Vecs}
		docs[file] = d
		if err := d.index(ctx, emb, opts, errOut); err != nil {
			return fail(fmt.Errorf("%s: %w", file, err))
		}
		if !ok {
			c.Vectors.Vecs = d.vecs
			if err := writeCache(path, c); err != nil {
				return fail(fmt.Errorf("eval pages: cache: %w", err))
			}
		}
	}
	return docs, nil
}

// index builds d's chunk retriever (embedding the chunks unless d holds
// their vectors) and its whole-page index.
func (d *pagesDoc) index(ctx context.Context, emb embed.Embedder, opts retrieve.Options, errOut io.Writer) error {
	var err error
	if d.lex, err = index.NewLexical(); err != nil {
		return err
	}
	if d.whole, err = index.NewLexical(); err != nil {
		return err
	}
	var dense *index.Dense
	if emb != nil {
		dense = index.NewDense(emb.Dim())
	}
	if d.r, err = retrieve.New(d.lex, dense, emb, opts); err != nil {
		return err
	}
	chunks := d.res.Chunks
	if emb != nil && len(d.vecs) != len(chunks) {
		fmt.Fprintf(errOut, "embedding %d chunks of %s\n", len(chunks), d.res.Doc.File)
		if d.vecs, err = d.r.Embed(ctx, chunks, nil); err != nil {
			return err
		}
	}
	if err := d.r.AddEmbedded(ctx, chunks, d.vecs); err != nil {
		return err
	}
	d.okapi = index.NewOkapi()
	if err := d.okapi.Add(ctx, wholePages(d.res)); err != nil {
		return err
	}
	return d.whole.Add(ctx, wholePages(d.res))
}

// wholePages turns every page of res into one passage.
func wholePages(res ingest.Result) []corpus.Chunk {
	out := make([]corpus.Chunk, 0, len(res.Pages))
	for _, p := range res.Pages {
		out = append(out, corpus.Chunk{ID: fmt.Sprintf("page-%d", p.Number), DocID: res.Doc.ID, Page: p.Number,
			Text: p.Text, Lang: p.Lang, PageType: p.Type})
	}
	return out
}

// errNoDoc is returned for a question about a file that was not loaded.
var errNoDoc = errors.New("no such document")

// pageRetriever searches each question's document with r(d) in mode.
func pageRetriever(docs map[string]*pagesDoc, mode retrieve.Mode, r func(*pagesDoc) *retrieve.Retriever) eval.PageRetriever {
	return func(ctx context.Context, file, question string, k int) ([]eval.PageHit, error) {
		d := docs[file]
		if d == nil {
			return nil, fmt.Errorf("%w: %s", errNoDoc, file)
		}
		m := mode
		if m == "" {
			m = defaultPagesMode(d)
		}
		res, err := r(d).Search(ctx, question, retrieve.SearchOptions{Mode: m, K: k})
		if err != nil {
			return nil, err
		}
		cite := make(map[string]eval.PageHit, len(d.res.Chunks))
		for _, c := range d.res.Chunks {
			cite[c.ID] = eval.PageHit{File: file, Page: c.Page, Runes: utf8.RuneCountInString(strings.TrimSpace(c.Text)), Region: c.Kind.IsRegion()}
		}
		hits := make([]eval.PageHit, len(res.Hits))
		for i, h := range res.Hits {
			hits[i] = cite[h.ChunkID]
		}
		return hits, nil
	}
}

// defaultPagesMode is the engine's default (retrieve.DefaultMode) for a
// session holding d alone with the English model, which the engine gives
// the English passages and those of undetermined language: hybrid for an
// English (or undetermined) document, BM25 otherwise. (d's own retriever
// embeds every passage, so that --mode hybrid can be scored on any PDF.)
func defaultPagesMode(d *pagesDoc) retrieve.Mode {
	var covers func(string) bool
	if d.r.HasEmbedder() {
		covers = func(lang string) bool { return lang == "en" || lang == "" }
	}
	return retrieve.DefaultMode(covers, d.res.Doc.Lang)
}

// wholePageRetriever is the baseline: BM25 over whole pages.
func wholePageRetriever(docs map[string]*pagesDoc) eval.PageRetriever {
	return pageListRetriever(docs, func(ctx context.Context, d *pagesDoc, q string, k int) ([]index.Scored, error) {
		return d.whole.Search(ctx, q, k)
	})
}

// okapiPageRetriever is the baseline scored by the textbook BM25.
func okapiPageRetriever(docs map[string]*pagesDoc) eval.PageRetriever {
	return pageListRetriever(docs, func(ctx context.Context, d *pagesDoc, q string, k int) ([]index.Scored, error) {
		return d.okapi.SearchScoped(ctx, q, k, corpus.Scope{})
	})
}

func pageListRetriever(docs map[string]*pagesDoc, search func(context.Context, *pagesDoc, string, int) ([]index.Scored, error)) eval.PageRetriever {
	return func(ctx context.Context, file, question string, k int) ([]eval.PageHit, error) {
		d := docs[file]
		if d == nil {
			return nil, fmt.Errorf("%w: %s", errNoDoc, file)
		}
		list, err := search(ctx, d, question, k)
		if err != nil {
			return nil, err
		}
		byID := map[string]int{}
		for _, p := range d.res.Pages {
			byID[fmt.Sprintf("page-%d", p.Number)] = p.Number
		}
		hits := make([]eval.PageHit, len(list))
		for i, s := range list {
			hits[i] = eval.PageHit{File: file, Page: byID[s.ChunkID]}
		}
		return hits, nil
	}
}

// fusedPages fuses the distinct pages of two retrievers by Reciprocal Rank
// Fusion (k = retrieve.DefaultRRFK): the experiment of a page-level index
// fused with the chunk index, measured before building one.
func fusedPages(a, b eval.PageRetriever) eval.PageRetriever {
	return func(ctx context.Context, file, question string, k int) ([]eval.PageHit, error) {
		score := map[eval.PageHit]float64{}
		var order []eval.PageHit
		for _, r := range []eval.PageRetriever{a, b} {
			hits, err := r(ctx, file, question, k)
			if err != nil {
				return nil, err
			}
			rank := 0
			seen := map[eval.PageHit]bool{}
			for _, h := range hits {
				h.Runes, h.Region = 0, false // a page, whichever of its passages
				if seen[h] {
					continue
				}
				seen[h] = true
				rank++
				if _, ok := score[h]; !ok {
					order = append(order, h)
				}
				score[h] += 1 / float64(retrieve.DefaultRRFK+rank)
			}
		}
		slices.SortStableFunc(order, func(x, y eval.PageHit) int { return cmp.Compare(score[y], score[x]) })
		return order[:min(k, len(order))], nil
	}
}

// courseResults reads the processed documents of a course file by file
// name (nil when path is ""), for eval pages --course.
func courseResults(ctx context.Context, path string) (map[string]ingest.Result, error) {
	if path == "" {
		return nil, nil
	}
	entries, _, err := engine.ReadCourse(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("eval pages: --course: %w", err)
	}
	out := map[string]ingest.Result{}
	for _, e := range entries {
		if e.Result != nil {
			out[e.File] = *e.Result
		}
	}
	return out, nil
}
