package export

import (
	"strings"
	"testing"

	"vika/backend/cite"
	"vika/backend/rag"
)

// TestRedactedMovesCitations: a key in an answer is redacted and the
// citations after it still point at their brackets; the turns given are
// left as they were. New with Redacted (on main, the JSON lines export
// redacted only the question and the metrics).
func TestRedactedMovesCitations(t *testing.T) {
	key := "sk-" + strings.Repeat("a1", 12)
	answer := "Use " + key + " here [sat.pdf p.1], then [sat.pdf p.2]."
	var cits []cite.Citation
	for _, raw := range []string{"[sat.pdf p.1]", "[sat.pdf p.2]"} {
		i := strings.Index(answer, raw)
		cits = append(cits, cite.Citation{Raw: raw, Start: i, End: i + len(raw), Claim: "Use " + key})
	}
	in := []rag.Answer{{Question: "why " + key, Answer: answer, Citations: cits, Footer: key,
		Sources: []rag.Source{{Index: 1}}}}
	in[0].Sources[0].Text = "passage " + key
	got := Redacted(in)[0]
	for _, s := range []string{got.Question, got.Answer, got.Footer, got.Sources[0].Text, got.Citations[0].Claim} {
		if strings.Contains(s, key) || !strings.Contains(s, "[redacted]") {
			t.Errorf("not redacted: %q", s)
		}
	}
	for _, c := range got.Citations {
		if got.Answer[c.Start:c.End] != c.Raw {
			t.Errorf("citation %q points at %q", c.Raw, got.Answer[c.Start:c.End])
		}
	}
	if in[0].Answer != answer || in[0].Sources[0].Text != "passage "+key || in[0].Citations[0].Start != strings.Index(answer, "[sat") {
		t.Errorf("the turns given changed: %+v", in[0])
	}
}
