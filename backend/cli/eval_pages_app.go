package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"vika/backend/cache"
	"vika/backend/engine"
	"vika/backend/eval"
	"vika/backend/retrieve"
)

// appPages searches each PDF as the app does: one engine session per PDF
// (engine.New with the default configuration, so its embedding models are
// chosen per language by models.Embedder and the installed cross-encoder
// is loaded as the window loads it), the PDF added through engine.Ingest
// and every question asked through engine.Search in the engine's default
// mode. A change to engine.New, the model routing, the fusion or the
// reranking is what these rows measure; the other rows of eval pages build
// their own retriever.
type appPages struct {
	engines map[string]*engine.Engine // by file name
	cache   *cache.Cache              // nil: every run ingests and embeds again
}

// openAppPages adds every PDF of dir that qs names, each to its own
// session. cacheDir, when set, holds a processed-document cache (package
// cache, the one the app's "Remember processed documents" keeps) shared by
// the sessions, so that later runs skip reading and embedding.
func openAppPages(ctx context.Context, dir, cacheDir string, qs []eval.PageQuestion, errOut io.Writer) (*appPages, error) {
	a := &appPages{engines: map[string]*engine.Engine{}}
	if cacheDir != "" {
		c, err := cache.Open(ctx, filepath.Join(cacheDir, "app"), cache.Options{MaxBytes: 8 << 30})
		if err != nil {
			return nil, err
		}
		a.cache = c
	}
	for _, q := range qs {
		if _, ok := a.engines[q.File]; ok {
			continue
		}
		e, err := engine.New(ctx, engine.DefaultConfig())
		if err != nil {
			a.close()
			return nil, err
		}
		a.engines[q.File] = e
		if a.cache != nil {
			e.SetCache(a.cache)
		}
		fmt.Fprintf(errOut, "eval pages (app): adding %s\n", q.File)
		if _, err := e.Ingest(ctx, filepath.Join(dir, q.File), nil); err != nil {
			a.close()
			return nil, fmt.Errorf("%s: %w", q.File, err)
		}
	}
	return a, nil
}

func (a *appPages) close() {
	for _, e := range a.engines {
		e.Close()
	}
	if a.cache != nil {
		a.cache.Close()
	}
}

// models says which models the sessions used, e.g.
// "bge-small-en-v1.5 + ms-marco-MiniLM-L-12-v2 (rerank)".
func (a *appPages) models() string {
	seen := map[string]bool{}
	var names []string
	for _, e := range a.engines {
		for _, n := range e.EmbedderNames() {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
		if r, err := e.Reranker(); err == nil && r != "none" && !seen[r] {
			seen[r] = true
			names = append(names, r+" (rerank)")
		}
	}
	return strings.Join(names, " + ")
}

// retriever searches each question's PDF through engine.Search, reranked
// (the first depth candidates; 0: the app's depth) or not.
func (a *appPages) retriever(rerank bool, depth int) eval.PageRetriever {
	return func(ctx context.Context, file, question string, k int) ([]eval.PageHit, error) {
		e := a.engines[file]
		if e == nil {
			return nil, fmt.Errorf("%w: %s", errNoDoc, file)
		}
		res, err := e.Search(ctx, retrieve.Query{Question: question}, engine.SearchOptions{K: k, Rerank: rerank, RerankDepth: depth})
		if err != nil {
			return nil, err
		}
		hits := make([]eval.PageHit, len(res.Hits))
		for i, h := range res.Hits {
			hits[i] = eval.PageHit{File: file, Page: h.Page, Runes: utf8.RuneCountInString(strings.TrimSpace(h.Text)), Region: h.Kind.IsRegion()}
		}
		return hits, nil
	}
}
