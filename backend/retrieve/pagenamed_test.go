package retrieve

import (
	"slices"
	"testing"

	"vika/backend/corpus"
)

func TestNamedPages(t *testing.T) {
	for q, want := range map[string][]int{
		"In the figure that locates at the top of page 5, what is the final step?": {5},
		"Que dit la page 12, et la p. 3 ?":                                         {12, 3},
		"What is on pages 4-5?":                                                    {4},
		"the figure at the bottom of page 6985":                                    {6985}, // past the last page, pageNamedFirst ignores it
		"How many pages does the paper have?":                                      nil,
		"What is the top-5 error at step 5?":                                       nil,
		"a p-value of 0.05 on page 0":                                              nil,
	} {
		if got := namedPages(q); !slices.Equal(got, want) {
			t.Errorf("%q: got %v, want %v", q, got, want)
		}
	}
}

// TestPageNamedFirst: the page a question names comes first, though its
// text (a figure's caption) holds few of the question's words; a page
// past the document's end, or outside the scope, moves nothing.
func TestPageNamedFirst(t *testing.T) {
	chunks := []corpus.Chunk{
		{ID: "p4-c1", DocID: "qacheck", Page: 4, Kind: corpus.ChunkBody, Text: "The claim verifier decides whether the context is sufficient."},
		{ID: "p5-c1", DocID: "qacheck", Page: 5, Kind: corpus.ChunkBody, Text: "Figure 3: The user interface of the demo."},
		{ID: "p6-c1", DocID: "qacheck", Page: 6, Kind: corpus.ChunkBody, Text: "The final step of the system is the reasoner: the final step predicts the label, the final step being a figure of merit."},
	}
	r := bm25Retriever(t, chunks)
	for _, tc := range []struct {
		q     string
		scope corpus.Scope
		want  string
	}{
		{"In the figure that locates at the top of page 5, what is the final step?", corpus.Scope{}, "p5-c1"},
		{"In the figure that locates at the top of page 6985, what is the final step?", corpus.Scope{}, "p6-c1"},
		{"In the figure that locates at the top of page 5, what is the final step?", corpus.Scope{From: 6}, "p6-c1"},
		{"In the figure, what is the final step?", corpus.Scope{}, "p6-c1"}, // the test's premise
	} {
		if got := firstHit(t, r, tc.q, tc.scope); got != tc.want {
			t.Errorf("%q in %+v: %s first, want %s", tc.q, tc.scope, got, tc.want)
		}
	}
}
