package cite

import (
	"fmt"
	"strings"
	"testing"

	"vika/backend/corpus"
)

// longAnswer is an answer of about n bytes in the shapes that cost most:
// one line without a full stop, a citation every 60 bytes, and as many
// unclosed brackets.
func longAnswer(n int) string {
	var sb strings.Builder
	for i := 0; sb.Len() < n; i++ {
		fmt.Fprintf(&sb, "the rate grows with load [a.pdf p.%d] and [ stays ", i%9+1)
	}
	return sb.String()
}

// BenchmarkCheckScales checks answers of 16, 64 and 256 KB: linear cost
// means ns/op grows 4x per step (about 16x per step before, quadratic).
func BenchmarkCheckScales(b *testing.B) {
	src := []corpus.Hit{{DocID: "d", File: "a.pdf", Page: 3, Text: "The rate grows with load and stays bounded."}}
	for _, kb := range []int{16, 64, 256} {
		answer := longAnswer(kb << 10)
		b.Run(fmt.Sprintf("%dKB", kb), func(b *testing.B) {
			for b.Loop() {
				Check(answer, src)
			}
		})
	}
}
