//go:build tune

package wordnet

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
)

func TestDiagExpansions(t *testing.T) {
	a := bleve.NewIndexMapping().AnalyzerNamed(en.AnalyzerName)
	analyze := func(w string) []string {
		var out []string
		for _, tk := range a.Analyze([]byte(w)) {
			out = append(out, string(tk.Term))
		}
		return out
	}
	tab, err := Load("/usr/share/wordnet", analyze, Options{Relations: Synonym | Hypernym | Hyponym | Derivation, Collocations: os.Getenv("COLL") == "1"})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("keys", len(tab))
	for _, q := range strings.Split(os.Getenv("QS"), "|") {
		fmt.Println("Q:", q)
		for _, term := range analyze(q) {
			var b strings.Builder
			for _, r := range tab[term] {
				fmt.Fprintf(&b, " %s/%d%c", r.Term, r.Sense, "?shHd"[map[Relation]int{Synonym: 1, Hypernym: 2, Hyponym: 3, Derivation: 4}[r.Rel]])
			}
			fmt.Printf("  %s:%s\n", term, b.String())
		}
	}
}
