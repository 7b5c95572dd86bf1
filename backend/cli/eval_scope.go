package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"vika/backend/corpus"
	"vika/backend/embed"
	"vika/backend/eval"
	"vika/backend/index"
	"vika/backend/retrieve"
)

// together is every PDF of a page evaluation in one retriever, as in a
// session holding them all (eval pages --together): each question is
// searched over all of them, scoped to its own PDF or not.
type together struct {
	r    *retrieve.Retriever
	lex  *index.Lexical
	docs map[string]*pagesDoc
	cite map[string]eval.PageHit // chunk id -> its file, page and length
}

// newTogether indexes the chunks (and vectors) of every doc in one
// retriever with opts.
func newTogether(ctx context.Context, docs map[string]*pagesDoc, emb embed.Embedder, opts retrieve.Options) (*together, error) {
	lex, err := index.NewLexical()
	if err != nil {
		return nil, err
	}
	var dense *index.Dense
	if emb != nil {
		dense = index.NewDense(emb.Dim())
	}
	r, err := retrieve.New(lex, dense, emb, opts)
	if err != nil {
		lex.Close()
		return nil, err
	}
	s := &together{r: r, lex: lex, docs: docs, cite: map[string]eval.PageHit{}}
	files := make([]string, 0, len(docs))
	for f := range docs {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		d := docs[f]
		vecs := d.vecs
		if emb == nil {
			vecs = nil
		}
		if err := r.AddEmbedded(ctx, d.res.Chunks, vecs); err != nil {
			s.close()
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for _, c := range d.res.Chunks {
			s.cite[c.ID] = eval.PageHit{File: f, Page: c.Page, Runes: utf8.RuneCountInString(strings.TrimSpace(c.Text)), Region: c.Kind.IsRegion()}
		}
	}
	return s, nil
}

func (s *together) close() {
	s.r.Close()
	s.lex.Close()
}

// retriever searches the whole session in mode ("" is the mode the
// question's PDF alone would get: defaultPagesMode) with page ranking pr,
// limited to the question's own PDF when scoped.
func (s *together) retriever(mode retrieve.Mode, pr retrieve.PageRanking, scoped bool) eval.PageRetriever {
	r := s.r.WithPages(pr)
	return func(ctx context.Context, file, question string, k int) ([]eval.PageHit, error) {
		d := s.docs[file]
		if d == nil {
			return nil, fmt.Errorf("%w: %s", errNoDoc, file)
		}
		m := mode
		if m == "" {
			m = defaultPagesMode(d)
		}
		o := retrieve.SearchOptions{Mode: m, K: k}
		if scoped {
			o.Scope = corpus.Scope{Docs: []string{d.res.Doc.ID}}
		}
		res, err := r.Search(ctx, question, o)
		if err != nil {
			return nil, err
		}
		hits := make([]eval.PageHit, len(res.Hits))
		for i, h := range res.Hits {
			hits[i] = s.cite[h.ChunkID]
		}
		return hits, nil
	}
}
