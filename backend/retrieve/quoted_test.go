package retrieve

import (
	"slices"
	"testing"

	"vika/backend/corpus"
)

func TestQuotedPhrases(t *testing.T) {
	for q, want := range map[string][]string{
		`Which subsection does the section "AUGMENTATION PROCESS IN RAG" include?`: {" augmentation process in rag "},
		`In the “Error Analysis of Step-Back Prompting”, what is the sum?`:         {" error analysis of step back prompting "},
		`Que dit la section « Modèle linéaire généralisé » ?`:                      {" modèle linéaire généralisé "},
		`List them in the format ["1","2"], e.g. "ProgramFC"`:                      nil, // single words and an example format
		`What does the paper call "p-value"?`:                                      nil, // one word as written
		`No quotes at all`:                                                         nil,
	} {
		if got := quotedPhrases(q); !slices.Equal(got, want) {
			t.Errorf("%q: got %q, want %q", q, got, want)
		}
	}
}

// TestQuotedPhraseFirst: the outline page holds the question's words more
// often than the section that prints the quoted heading, so BM25 ranks it
// first; quoted, the heading's page comes first. A phrase found on too
// many pages, or on a page outside the scope, moves nothing.
func TestQuotedPhraseFirst(t *testing.T) {
	chunks := []corpus.Chunk{
		{ID: "p2-c1", DocID: "rag", Page: 2, Kind: corpus.ChunkBody, Text: "Section V analyzes the three augmentation processes in RAG. Each augmentation process of RAG, the process and its augmentation, is a subsection of RAG augmentation."},
		{ID: "p10-c1", DocID: "rag", Page: 10, Kind: corpus.ChunkBody, Text: "V. AUGMENTATION PROCESS IN RAG\nIn the domain of retrieval, the standard practice often involves a singular retrieval step followed by generation, which can lead to inefficiencies. Iterative retrieval, recursive retrieval and adaptive retrieval are described below."},
		{ID: "p11-c1", DocID: "rag", Page: 11, Kind: corpus.ChunkBody, Text: "Adaptive retrieval methods let the model decide when to retrieve."},
	}
	r := bm25Retriever(t, chunks)
	first := func(q string, scope corpus.Scope) string { return firstHit(t, r, q, scope) }
	if got := first("Which subsection does the section AUGMENTATION PROCESS IN RAG include?", corpus.Scope{}); got != "p2-c1" {
		t.Fatalf("unquoted: %s first, want p2-c1 (the test's premise: BM25 prefers the outline)", got)
	}
	if got := first(`Which subsection does the section "AUGMENTATION PROCESS IN RAG" include?`, corpus.Scope{}); got != "p10-c1" {
		t.Errorf("quoted: %s first, want p10-c1", got)
	}
	if got := first(`Which subsection does the section "AUGMENTATION PROCESS IN RAG" include?`, corpus.Scope{From: 1, To: 5}); got != "p2-c1" {
		t.Errorf("quoted, page 10 out of scope: %s first, want p2-c1", got)
	}
	// a phrase on every page of a longer document locates nothing
	var many []corpus.Chunk
	for i, text := range []string{"retrieval augmentation in RAG", "retrieval augmentation again, and again", "retrieval augmentation", "retrieval augmentation, augmentation process and augmentation process"} {
		many = append(many, corpus.Chunk{ID: "m" + string(rune('1'+i)), DocID: "many", Page: i + 1, Kind: corpus.ChunkBody, Text: text})
	}
	rm := bm25Retriever(t, many)
	res, err := rm.Search(t.Context(), `the "retrieval augmentation" of the augmentation process`, SearchOptions{Mode: ModeBM25, K: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOfHits(res.Hits); len(got) == 0 || got[0] != "m4" {
		t.Errorf("a phrase on 4 pages: hits %v, want BM25's m4 first", got)
	}
}

// firstHit returns the id of the first of r's BM25 hits for q in scope.
func firstHit(t *testing.T, r *Retriever, q string, scope corpus.Scope) string {
	t.Helper()
	res, err := r.Search(t.Context(), q, SearchOptions{Mode: ModeBM25, K: 3, Scope: scope})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 {
		t.Fatalf("%q: no hits", q)
	}
	return res.Hits[0].ChunkID
}
