package rag

import (
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/retrieve"
)

// TestResNetTableAndFigureQuestionsBringTheRegion asks the ResNet paper
// the two questions a new user tried: the 10-crop top-5 error of
// ResNet-152 (Table 3, page 6) and what Figure 4 shows (page 5). The
// first source must be the table's or figure's own passage, not page 6's
// flat body text holding Table 3's cells, nor Figure 1's axis labels on
// page 1 (what came first before the region rules of backend/retrieve).
func TestResNetTableAndFigureQuestionsBringTheRegion(t *testing.T) {
	eng, _ := resNetSession(t)
	for _, tc := range []struct {
		question, caption string
		kind              corpus.ChunkKind
		page              int
	}{
		{"top-5 error of ResNet-152 on the ImageNet validation set, 10-crop testing", "Table 3", corpus.ChunkTable, 6},
		{"What does Figure 4 show about plain and residual networks on ImageNet?", "Figure 4", corpus.ChunkFigure, 5},
	} {
		res, err := eng.Search(t.Context(), retrieve.Query{Question: tc.question}, engine.SearchOptions{K: 8, Rerank: true})
		hits := res.Hits
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 {
			t.Fatalf("%q: no hits", tc.question)
		}
		h := hits[0]
		if h.Kind != tc.kind || h.Page != tc.page || !strings.HasPrefix(h.Text, tc.caption) || h.BBox == nil {
			t.Errorf("%q: first source %s %s %q (box %v), want %s's passage on page %d", tc.question, h.Label, h.Kind, firstLine(h.Text), h.BBox, tc.caption, tc.page)
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
