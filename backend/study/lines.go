package study

import (
	"strings"

	"vika/backend/cite"
	"vika/backend/corpus"
	"vika/backend/message"
)

// Line is one checked line of a study guide.
type Line struct {
	Text  string `json:"text"` // the sentence (a definition, an answer) with its citations
	Check Check  `json:"check"`
}

// Term is a key term with its definition.
type Term struct {
	Term       string `json:"term"`
	Definition Line   `json:"definition"`
}

// QA is a likely exam question with its short answer.
type QA struct {
	Question string `json:"question"`
	Answer   Line   `json:"answer"`
}

// parsed is the material read from a model's lines.
type parsed struct {
	summary []string
	terms   [][2]string
	qas     [][2]string // question, answer ("" until its A line)
}

// parseLines reads the line format of prompt.Study (readLines). A
// variable, so that a test can make it panic as a bug reached by a
// model's odd reply would: the job ends with message.Internal.
var parseLines = readLines

// readLines reads the line format of prompt.Study; other lines are
// ignored (a model's preamble, Markdown decoration).
func readLines(text string) parsed {
	var p parsed
	for _, raw := range strings.Split(text, "\n") {
		tag, rest, ok := strings.Cut(strings.TrimLeft(strings.TrimSpace(raw), "-*• "), ":")
		rest = strings.TrimSpace(rest)
		if !ok || rest == "" {
			continue
		}
		switch strings.ToUpper(strings.Trim(tag, "*# ")) {
		case "SUMMARY":
			p.summary = append(p.summary, rest)
		case "TERM":
			term, def, ok := strings.Cut(rest, "::")
			if ok && strings.TrimSpace(term) != "" && strings.TrimSpace(def) != "" {
				p.terms = append(p.terms, [2]string{strings.TrimSpace(term), strings.TrimSpace(def)})
			}
		case "Q":
			p.qas = append(p.qas, [2]string{rest, ""})
		case "A":
			if n := len(p.qas); n > 0 && p.qas[n-1][1] == "" {
				p.qas[n-1][1] = rest
			}
		}
	}
	return p
}

// checkLine checks a line's citations against the scope's passages: it is
// verified when it cites at least one page and every citation is.
func checkLine(text string, sources []corpus.Hit) Check {
	cits := cite.Check(text, sources)
	if len(cits) == 0 {
		return Check{Reason: message.StudyUncited}
	}
	c := Check{Verified: true, Label: cits[0].Label, DocID: cits[0].DocID, Page: cits[0].Page, Citations: cits}
	for _, ct := range cits {
		if !ct.Verified {
			c.Verified, c.Reason = false, ct.Reason
			break
		}
	}
	return c
}

// format writes parsed material back in the line format (the notes a
// reduce merges).
func (p parsed) format() string {
	var b strings.Builder
	for _, s := range p.summary {
		b.WriteString("SUMMARY: " + s + "\n")
	}
	for _, t := range p.terms {
		b.WriteString("TERM: " + t[0] + " :: " + t[1] + "\n")
	}
	for _, q := range p.qas {
		if q[1] != "" {
			b.WriteString("Q: " + q[0] + "\nA: " + q[1] + "\n")
		}
	}
	return b.String()
}
