package retrieve

import (
	"regexp"
	"slices"
	"strings"

	"vika/backend/corpus"
)

// A reference list matches a question by the titles it cites: "deep
// residual learning" finds ResNet's own bibliography page beside the
// pages that explain it, and a prompt's eight sources are better spent on
// the latter. So, unless the question is about references, passages of a
// reference list come after every other candidate (they stay in the list,
// past the sources of an answer).
//
// A passage is part of a reference list when the chunker says so
// (corpus.ChunkReferences: a section titled like a bibliography) and it
// holds entries: at least refMinMarks entry numbers ("[45]") and years.
// The chunker's kind lasts until the next heading it recognises, so a
// thesis's closing abstract after its bibliography is marked references
// too (schutz2017, page 67: "188 prélèvements ... 47 patients"); it cites
// nothing, and stays a source.
var refMarks = regexp.MustCompile(`\[\d{1,3}\]|\b(1[89]|20)\d\d[a-z]?\b`)

const refMinMarks = 3

// listsReferences reports whether c is a passage of a reference list.
func listsReferences(c corpus.Chunk) bool {
	return c.Kind == corpus.ChunkReferences && len(refMarks.FindAllStringIndex(c.Text, refMinMarks)) >= refMinMarks
}

// aboutRefs holds the words of a question about references, in English
// and French.
var aboutRefs = regexp.MustCompile(`(?i)(^|[^\p{L}])(references?|bibliograph\p{L}*|cit(e|es|ed|ing|ations?)|cité\p{L}*|citations?|références?|full title|title of the paper|which papers?|what papers?|quels? articles?|proposed by|auteurs?|authors?)([^\p{L}]|$)`)

// aboutReferences reports whether question asks about references.
func aboutReferences(question string) bool { return aboutRefs.MatchString(strings.TrimSpace(question)) }

// referencesLast moves the reference-list passages of cands after the
// others, each group keeping its order.
func (b *pageBook) referencesLast(cands []*candidate) []*candidate {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if len(b.refs) == 0 || !slices.ContainsFunc(cands, func(c *candidate) bool { return b.refs[c.id] }) {
		return cands
	}
	out := make([]*candidate, 0, len(cands))
	var refs []*candidate
	for _, c := range cands {
		if b.refs[c.id] {
			refs = append(refs, c)
		} else {
			out = append(out, c)
		}
	}
	return append(out, refs...)
}
