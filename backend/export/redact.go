package export

import (
	"slices"

	"vika/backend/cite"
	"vika/backend/metrics"
	"vika/backend/rag"
)

// Redacted returns turns with every key-shaped string of their free text
// redacted (metrics.Redact), as the exports show them: the questions, the
// answers (their citations' offsets moved with the text), the footers,
// the citations' brackets and claims, the sources' passages and the
// metrics' query. The JSON lines export and a course file saved with its
// conversation (session.SaveCourse) write turns through it; turns is left
// as it was.
func Redacted(turns []rag.Answer) []rag.Answer {
	out := make([]rag.Answer, len(turns))
	for i, a := range turns {
		a.Question, a.StandaloneQuestion, a.Footer = metrics.Redact(a.Question), metrics.Redact(a.StandaloneQuestion), metrics.Redact(a.Footer)
		a.Answer, a.Citations = redactCited(a.Answer, a.Citations)
		a.Sources = slices.Clone(a.Sources)
		for j := range a.Sources {
			a.Sources[j].Text = metrics.Redact(a.Sources[j].Text)
		}
		a.Metrics = a.Metrics.Redacted()
		out[i] = a
	}
	return out
}

// redactCited redacts answer piece by piece between its citations'
// bounds, so that each citation's offsets can follow its bracket.
// Citations whose offsets do not fit answer keep them.
func redactCited(answer string, cits []cite.Citation) (string, []cite.Citation) {
	cuts := []int{0, len(answer)}
	for _, c := range cits {
		if c.Start >= 0 && c.Start <= c.End && c.End <= len(answer) {
			cuts = append(cuts, c.Start, c.End)
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	moved := make(map[int]int, len(cuts))
	var b []byte
	for i, at := range cuts {
		moved[at] = len(b)
		if i+1 < len(cuts) {
			b = append(b, metrics.Redact(answer[at:cuts[i+1]])...)
		}
	}
	out := slices.Clone(cits)
	for i := range out {
		c := &out[i]
		c.Raw, c.Claim = metrics.Redact(c.Raw), metrics.Redact(c.Claim)
		if s, ok := moved[c.Start]; ok && c.Start <= c.End && c.End <= len(answer) {
			c.Start, c.End = s, moved[c.End]
		}
	}
	return string(b), out
}
