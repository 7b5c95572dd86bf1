package rag

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"vika/backend/corpus"
)

// scopeLabel is how the metrics and the exports name a question's scope:
// its files and page range ("bert.pdf, resnet.pdf p.10-20"); "" for every
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
