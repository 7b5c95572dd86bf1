package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// StudentKinds are the kinds of the student question sets (the French
// questions of ../shared/data/fr_questions, written by an annotator the
// way students revising the material type them).
var StudentKinds = []string{"text", "table", "formula", "number", "figure"}

// studentQuestion is one line of a student question set.
type studentQuestion struct {
	ID       string `json:"id"`
	File     string `json:"file"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
	Pages    []int  `json:"pages"`
	Style    string `json:"style"` // paraphrase or lexical
	Kind     string `json:"kind"`  // one of StudentKinds
}

// isStudentSet tells a student question set by its "style" field.
func isStudentSet(line []byte) bool {
	var probe map[string]json.RawMessage
	if json.Unmarshal(line, &probe) != nil {
		return false
	}
	_, ok := probe["style"]
	return ok
}

// ReadStudentQuestions decodes a student question set: each line becomes
// a PageQuestion of the tune split (the set is development data), its
// style kept as its note. Unknown fields, kinds other than StudentKinds,
// styles other than paraphrase and lexical, missing pages and duplicate
// ids are errors wrapping ErrBadQuestions.
func ReadStudentQuestions(r io.Reader) ([]PageQuestion, error) {
	var out []PageQuestion
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		var s studentQuestion
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrBadQuestions, n, err)
		}
		q := PageQuestion{ID: s.ID, File: s.File, Question: s.Question, Pages: s.Pages, Note: s.Style,
			Kind: s.Kind, Split: SplitTune, Answer: s.Answer}
		switch {
		case !slices.Contains(StudentKinds, s.Kind):
			return nil, fmt.Errorf("%w: line %d: %s: kind %q (want one of %s)", ErrBadQuestions, n, s.ID, s.Kind, strings.Join(StudentKinds, ", "))
		case s.Style != "paraphrase" && s.Style != "lexical":
			return nil, fmt.Errorf("%w: line %d: %s: style %q (want paraphrase or lexical)", ErrBadQuestions, n, s.ID, s.Style)
		}
		q.Kind = "text" // scored with the repository's kinds; the set's own kind is kept below
		if err := q.check(); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrBadQuestions, n, err)
		}
		q.Kind = s.Kind
		if seen[q.ID] {
			return nil, fmt.Errorf("%w: line %d: duplicate id %q", ErrBadQuestions, n, q.ID)
		}
		seen[q.ID] = true
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
