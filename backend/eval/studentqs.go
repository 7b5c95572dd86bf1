package eval

import (
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
	return readQuestions(r, func(line string) (PageQuestion, error) {
		var s studentQuestion
		if err := decodeStrict(line, &s); err != nil {
			return PageQuestion{}, err
		}
		q := PageQuestion{ID: s.ID, File: s.File, Question: s.Question, Pages: s.Pages, Note: s.Style,
			Kind: "text", Split: SplitTune, Answer: s.Answer} // checked with the repository's kinds
		switch {
		case !slices.Contains(StudentKinds, s.Kind):
			return q, fmt.Errorf("%s: kind %q (want one of %s)", s.ID, s.Kind, strings.Join(StudentKinds, ", "))
		case s.Style != "paraphrase" && s.Style != "lexical":
			return q, fmt.Errorf("%s: style %q (want paraphrase or lexical)", s.ID, s.Style)
		}
		if err := q.check(); err != nil {
			return q, err
		}
		q.Kind = s.Kind // the set's own kind, for the scores by kind
		return q, nil
	})
}
