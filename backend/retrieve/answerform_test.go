package retrieve

import (
	"slices"
	"strings"
	"testing"

	"vika/backend/corpus"
)

func TestSplitSentences(t *testing.T) {
	for s, want := range map[string][]string{
		"When was it? The answer needs the minute. For example: 1883 Dec.7, 2 8 p.m.": {"When was it?", "The answer needs the minute.", "For example: 1883 Dec.7, 2 8 p.m."},
		`How many? Please list them by descending order. e.g., ["2","1"]`:             {"How many?", `Please list them by descending order. e.g., ["2","1"]`},
		"See Fig. 3 and p. 5. Why is 3.5 larger?":                                     {"See Fig. 3 and p. 5.", "Why is 3.5 larger?"},
		"One sentence without a stop":                                                 {"One sentence without a stop"},
	} {
		if got := splitSentences(s); !slices.Equal(got, want) {
			t.Errorf("%q:\n got %q\nwant %q", s, got, want)
		}
	}
}

func TestSearchedText(t *testing.T) {
	for q, want := range map[string]string{
		// MMLongBench-Doc's shapes of answer instructions
		"How many items in total of Amazon related datasets in the paper? Please write the answer in int format. ":                        "How many items in total of Amazon related datasets in the paper?",
		"What is the gap on HOVER? Please write down the answer in float format with 2 decimals.":                                         "What is the gap on HOVER?",
		`How many green rectangles in the first figure? Please list the numbers in the list format by descending order. e.g., ["2","1"]`:  "How many green rectangles in the first figure?",
		"When was the last shock recorded in the table? The answer needs to be accurate to the minute. For example: 1883 Dec.7, 2 8 p.m.": "When was the last shock recorded in the table?",
		`Please list the F1 scores of ProgramFC, in descending order. For example: ["3.0", "2.0"].`:                                       "Please list the F1 scores of ProgramFC, in descending order.",
		"Quel est le gain du modèle ? Réponds en une phrase.":                                                                             "Quel est le gain du modèle ?",
		// kept: one sentence; a follow-up that asks about the document; an example of the content
		"Please give the answer in int format":                                                     "Please give the answer in int format",
		"What does Table 2 show? Please explain it with the rows of Table 3.":                      "What does Table 2 show? Please explain it with the rows of Table 3.",
		"What is the answer to exercise 2? Please list the words of Table 3 in order.":             "What is the answer to exercise 2? Please list the words of Table 3 in order.",
		`What is X? Please give the answer in the format of "the data set".`:                       `What is X? Please give the answer in the format of "the data set".`,
		"Which queues are persistent? For example, is the banker's queue persistent?":              "Which queues are persistent? For example, is the banker's queue persistent?",
		"Who came up with the name bit for a binary unit of information?":                          "Who came up with the name bit for a binary unit of information?",
		"How is the string format of a record defined? The answer section of chapter 3 says more.": "How is the string format of a record defined? The answer section of chapter 3 says more.",
	} {
		if got := searchedText(q); got != want {
			t.Errorf("%q:\n got %q\nwant %q", q, got, want)
		}
	}
}

// TestAnswerFormNotSearched: the page that talks about formats and
// writing answers outranks the answer page in BM25 when the question's
// instruction is searched; without it, the statistics page comes first.
func TestAnswerFormNotSearched(t *testing.T) {
	chunks := []corpus.Chunk{
		{ID: "p4-c1", DocID: "recsys", Page: 4, Kind: corpus.ChunkBody, Text: "Table 3 shows the statistics of the Amazon datasets: 85 items in Amazon-beauty and 8,895 items in Amazon-music, with their users and ratings."},
		{ID: "p5-c1", DocID: "recsys", Page: 5, Kind: corpus.ChunkBody, Text: "Annotators write each answer in a fixed format: an int, a float with two decimals, or a string. Please write the label in the format the guide gives."},
		{ID: "p6-c1", DocID: "recsys", Page: 6, Kind: corpus.ChunkBody, Text: "Related work on personality and recommendation."},
	}
	r := bm25Retriever(t, chunks)
	q := "How many items in the Amazon datasets? Please write the answer in int format."
	raw, err := r.search(t.Context(), []string{q}, q, SearchOptions{Mode: ModeBM25, K: 3}) // Search minus searchedText
	if err != nil {
		t.Fatal(err)
	}
	if len(raw.Hits) == 0 || raw.Hits[0].ChunkID == "p4-c1" {
		t.Fatalf("the test's premise fails: with the instruction searched, BM25 gives %v, not another page first", idsOfHits(raw.Hits))
	}
	if got := firstHit(t, r, q, corpus.Scope{}); got != "p4-c1" {
		t.Errorf("%s first, want p4-c1 (the instruction is not searched)", got)
	}
	res, err := r.SearchQuery(t.Context(), Query{Question: q}, SearchOptions{Mode: ModeBM25, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOfHits(res.Hits); len(got) == 0 || got[0] != "p4-c1" {
		t.Errorf("SearchQuery: hits %v, want p4-c1 first", got)
	}
}

// BenchmarkSearchedText: the cost of reading a question's sentences,
// with an instruction and without one.
func BenchmarkSearchedText(b *testing.B) {
	for name, q := range map[string]string{
		"instruction": `How many green and grey rectangles in the first figure of the paper? Please list the numbers in the list format by descending order. e.g., ["2","1"]`,
		"plain":       "In which branch of physics does the same formula for H already appear?",
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				searchedText(q)
			}
		})
	}
}

// FuzzSearchedText: whatever the question, what is searched keeps its
// first sentence and is empty only when the question is blank.
func FuzzSearchedText(f *testing.F) {
	for _, s := range []string{"How many? Please write the answer in int format.", "e.g.? . . ?", "«Quoi ?» Réponds en une phrase.", "...", "a.B? c! D."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		got := searchedText(q)
		if strings.TrimSpace(q) == "" {
			return
		}
		first := splitSentences(q)[0]
		if !strings.HasPrefix(got, first) && got != q {
			t.Errorf("%q -> %q lost its first sentence %q", q, got, first)
		}
	})
}
