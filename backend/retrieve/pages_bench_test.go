package retrieve

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/eval/evaltest"
	"vika/backend/index"
)

// BenchmarkPageRanking times BM25-mode searches over 10,000 passages of
// SciFact (the two sentence-aligned halves of each abstract are page 1 of
// its document, as in `vika eval latency`) with the page ranking off (the
// search before it) and on: the difference is what the page ranking adds
// to any mode (the query embedding and the dense search are untouched).
// "quoted" is the page ranking on with each query's first two words
// quoted, which makes quotedFirst read every passage (quoted.go).
//
//	go test -tags webkit2_41 -run '^$' -bench PageRanking ./backend/retrieve
func BenchmarkPageRanking(b *testing.B) {
	ds := evaltest.SciFact(b, "test")
	var halves []string
	for _, d := range ds.Corpus {
		s := Sentences(d.Title + "\n\n" + d.Text)
		mid := (len(s) + 1) / 2
		for _, part := range [][]string{s[:mid], s[mid:]} {
			if len(part) > 0 {
				halves = append(halves, strings.Join(part, " "))
			}
		}
	}
	const n = 10000
	chunks := make([]corpus.Chunk, 0, n)
	for i := 0; len(chunks) < n; i++ {
		chunks = append(chunks, corpus.Chunk{ID: fmt.Sprintf("c%d", i), DocID: fmt.Sprintf("d%d", i/2), Page: 1, Lang: "en", Text: halves[i%len(halves)]})
	}
	ctx := context.Background()
	lex, err := index.NewLexical()
	if err != nil {
		b.Fatal(err)
	}
	defer lex.Close()
	r, err := New(lex, nil, nil, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	if err := r.AddEmbedded(ctx, chunks, nil); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		p     PageRanking
		quote bool
	}{{"off", PageRanking{}, false}, {"on", DefaultPageRanking, false}, {"quoted", DefaultPageRanking, true}} {
		rr := r.WithPages(tc.p)
		b.Run(tc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				q := ds.Queries[i%len(ds.Queries)].Text
				if w := strings.Fields(q); tc.quote && len(w) > 2 {
					q = `"` + w[0] + " " + w[1] + `" ` + strings.Join(w[2:], " ")
				}
				if _, err := rr.Search(ctx, q, SearchOptions{Mode: ModeBM25, K: 10}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
