package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// MMLongBench-Doc (Ma et al., 2024) publishes its questions as JSONL: one
// object per line with the document's file name (doc_id), the question,
// its answer, the 1-based evidence pages and the kinds of evidence, the
// last two as the text of a Python list ("[6, 17]", "['Table',
// 'Pure-text (Plain-text)']"). An unanswerable question has the answer
// "Not answerable" and no evidence page.
type mmlbLine struct {
	DocID           string `json:"doc_id"`
	DocType         string `json:"doc_type"`
	Question        string `json:"question"`
	Answer          string `json:"answer"`
	EvidencePages   string `json:"evidence_pages"`
	EvidenceSources string `json:"evidence_sources"`
	AnswerFormat    string `json:"answer_format"`
}

// MMLongBenchUnanswerable is the answer of MMLongBench-Doc's unanswerable
// questions.
const MMLongBenchUnanswerable = "Not answerable"

// MMLongBench evidence sources that only a picture of the page shows; the
// others (Pure-text (Plain-text), Generalized-text (Layout), Table) are in
// the page's text layer.
var mmlbVisual = []string{"Chart", "Figure"}

// isMMLongBench reports whether line, the first line of a question set,
// is an MMLongBench-Doc question.
func isMMLongBench(line []byte) bool {
	var probe map[string]json.RawMessage
	if json.Unmarshal(line, &probe) != nil {
		return false
	}
	_, ok := probe["doc_id"]
	return ok
}

// ReadMMLongBench decodes MMLongBench-Doc's questions as published. Each
// becomes a PageQuestion of the tune split (the set is development data)
// with id "mmlb-N" (N its line), its evidence pages and sources, and the
// kind "figure" when a Chart or Figure is among its sources, else "text".
// An unanswerable question keeps no page (PageQuestion.Answerable).
// Errors wrap ErrBadQuestions.
func ReadMMLongBench(r io.Reader) ([]PageQuestion, error) {
	var out []PageQuestion
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var l mmlbLine
		if err := json.Unmarshal(line, &l); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrBadQuestions, n, err)
		}
		q, err := l.question(fmt.Sprintf("mmlb-%d", n))
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrBadQuestions, n, err)
		}
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no question", ErrBadQuestions)
	}
	return out, nil
}

func (l mmlbLine) question(id string) (PageQuestion, error) {
	q := PageQuestion{ID: id, File: l.DocID, Question: l.Question, Answer: l.Answer, Kind: "text", Split: SplitTune}
	switch {
	case l.DocID == "":
		return q, fmt.Errorf("%s: no doc_id", id)
	case strings.TrimSpace(l.Question) == "":
		return q, fmt.Errorf("%s: empty question", id)
	}
	if err := json.Unmarshal([]byte(l.EvidencePages), &q.Pages); err != nil {
		return q, fmt.Errorf("%s: evidence_pages %q: %v", id, l.EvidencePages, err)
	}
	for _, p := range q.Pages {
		if p < 1 {
			return q, fmt.Errorf("%s: page %d (pages are 1-based)", id, p)
		}
	}
	var err error
	if q.Sources, err = pythonStrings(l.EvidenceSources); err != nil {
		return q, fmt.Errorf("%s: evidence_sources: %v", id, err)
	}
	if unanswerable := strings.TrimSpace(l.Answer) == MMLongBenchUnanswerable; unanswerable != (len(q.Pages) == 0) {
		return q, fmt.Errorf("%s: answer %q with evidence pages %v", id, l.Answer, q.Pages)
	}
	if slices.ContainsFunc(q.Sources, func(s string) bool { return slices.Contains(mmlbVisual, s) }) {
		q.Kind = "figure"
	}
	return q, nil
}

// pythonStrings parses the text of a Python list of quoted strings without
// commas or quotes inside them ("['Table', 'Chart']"), as MMLongBench
// writes its evidence sources.
func pythonStrings(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return nil, fmt.Errorf("%q is not a list", s)
	}
	body := strings.TrimSpace(s[1 : len(s)-1])
	if body == "" {
		return nil, nil
	}
	var out []string
	for _, part := range strings.Split(body, ",") {
		part = strings.TrimSpace(part)
		if len(part) < 2 || (part[0] != '\'' && part[0] != '"') || part[len(part)-1] != part[0] {
			return nil, fmt.Errorf("%q: %q is not a quoted string", s, part)
		}
		out = append(out, part[1:len(part)-1])
	}
	return out, nil
}
