package eval

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"vika/backend/sharedtest"
)

func TestReadMMLongBench(t *testing.T) {
	in := `{"doc_id": "a.pdf", "doc_type": "Academic paper", "question": "Which table?", "answer": "T2", "evidence_pages": "[6, 17]", "evidence_sources": "['Table', 'Pure-text (Plain-text)']", "answer_format": "Str"}

{"doc_id": "a.pdf", "doc_type": "Academic paper", "question": "How many bars?", "answer": "6", "evidence_pages": "[1]", "evidence_sources": "['Chart']", "answer_format": "Int"}
{"doc_id": "b.pdf", "doc_type": "Academic paper", "question": "What of GPT-9?", "answer": "Not answerable", "evidence_pages": "[]", "evidence_sources": "[]", "answer_format": "None"}
`
	qs, err := ReadMMLongBench(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 3 {
		t.Fatalf("%d questions, want 3", len(qs))
	}
	if q := qs[0]; q.ID != "mmlb-1" || q.File != "a.pdf" || !slices.Equal(q.Pages, []int{6, 17}) || q.Kind != "text" || q.Split != SplitTune ||
		!slices.Equal(q.Sources, []string{"Table", "Pure-text (Plain-text)"}) || !q.Answerable() {
		t.Errorf("first: %+v", q)
	}
	if q := qs[1]; q.ID != "mmlb-3" || q.Kind != "figure" {
		t.Errorf("second (line 3, a chart): %+v", q)
	}
	if q := qs[2]; q.Answerable() || q.Answer != MMLongBenchUnanswerable || q.Sources != nil {
		t.Errorf("unanswerable: %+v", q)
	}
	for _, bad := range []string{
		`{"doc_id": "a.pdf", "question": "q", "answer": "x", "evidence_pages": "[0]", "evidence_sources": "[]"}`,
		`{"doc_id": "a.pdf", "question": "q", "answer": "x", "evidence_pages": "6", "evidence_sources": "[]"}`,
		`{"doc_id": "a.pdf", "question": "q", "answer": "x", "evidence_pages": "[]", "evidence_sources": "[]"}`,
		`{"doc_id": "a.pdf", "question": "q", "answer": "Not answerable", "evidence_pages": "[3]", "evidence_sources": "[]"}`,
		`{"doc_id": "a.pdf", "question": "q", "answer": "x", "evidence_pages": "[3]", "evidence_sources": "[Table]"}`,
		`{"doc_id": "", "question": "q", "answer": "x", "evidence_pages": "[3]", "evidence_sources": "[]"}`,
		`{"doc_id": "a.pdf", "question": " ", "answer": "x", "evidence_pages": "[3]", "evidence_sources": "[]"}`,
		`{"doc_id": "a.pdf"`,
		``,
	} {
		if _, err := ReadMMLongBench(strings.NewReader(bad)); !errors.Is(err, ErrBadQuestions) {
			t.Errorf("%s: error %v, want ErrBadQuestions", bad, err)
		}
	}
}

// TestMMLongBenchDev reads the development half as published: 59
// questions on 8 papers, 12 unanswerable; of the 47 others, 28 have a
// chart or figure among their evidence and 19 only text-layer evidence.
func TestMMLongBenchDev(t *testing.T) {
	path := sharedtest.Require(t, "mmlongbench_dev/questions.jsonl")
	qs, err := LoadPageQuestions(path)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	kinds := map[string]int{}
	unanswerable := 0
	for _, q := range qs {
		files[q.File] = true
		if !q.Answerable() {
			unanswerable++
			continue
		}
		kinds[q.Kind]++
	}
	if len(qs) != 59 || len(files) != 8 || unanswerable != 12 || kinds["text"] != 19 || kinds["figure"] != 28 {
		t.Errorf("%d questions on %d files, %d unanswerable, kinds %v", len(qs), len(files), unanswerable, kinds)
	}
}
