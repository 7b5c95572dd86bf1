package rag

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"vika/backend/corpus"
)

// resolveScope turns o's outline section into its document and pages
// (corpus.Scope.Resolve), once for the whole turn: its label, the search
// around a selection and the extractive answer all read the pages.
func (s *Assistant) resolveScope(ctx context.Context, o Options) (Options, error) {
	if o.Scope.Section == "" {
		return o, nil
	}
	docs, err := s.eng.Documents(ctx)
	if err != nil {
		return o, err
	}
	o.Scope, err = o.Scope.Resolve(docs)
	return o, err
}

// scopeLabel is how the metrics and the exports name a question's scope:
// its files, outline section and page range ("bert.pdf, resnet.pdf
// p.10-20", "vaswani.pdf § 3 Model Architecture p.2-6"); "" for every
// document. A document no longer in the session is named by its id.
func (s *Assistant) scopeLabel(ctx context.Context, sc corpus.Scope) string {
	if sc.All() {
		return ""
	}
	var names []string
	if len(sc.Docs) > 0 {
		label := map[string]string{}
		if docs, err := s.eng.Documents(ctx); err == nil {
			for _, d := range docs {
				label[d.ID] = d.Label
			}
		}
		for _, id := range sc.Docs {
			names = append(names, cmp.Or(label[id], id))
		}
	}
	out := strings.Join(names, ", ")
	if sc.Section != "" {
		out = strings.TrimSpace(out + " § " + sc.Section)
	}
	if sc.Paged() {
		pages := fmt.Sprintf("p.%d-%d", max(sc.From, 1), sc.To)
		switch {
		case sc.To == 0:
			pages = fmt.Sprintf("p.%d-", sc.From)
		case sc.From == sc.To:
			pages = fmt.Sprintf("p.%d", sc.From)
		}
		out = strings.TrimSpace(out + " " + pages)
	}
	return out
}
