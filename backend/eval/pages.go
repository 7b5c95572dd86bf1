package eval

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// Cut-offs of the page-level metrics Pages reports.
const (
	PageHitCutoff = 5  // page hit@5: an answer page among the pages of the first 5 hits
	PageMRRCutoff = 10 // MRR@10 over pages; also the number of hits Pages asks for
)

// ErrBadQuestions is wrapped by the errors of ReadPageQuestions for a
// malformed question set.
var ErrBadQuestions = errors.New("malformed page question set")

// PageQuestion is one question of a page-level evaluation set
// (testdata/pdf_questions.jsonl): a question about one PDF and the
// 1-based PDF pages that hold its answer.
type PageQuestion struct {
	ID       string `json:"id"`
	File     string `json:"file"` // the PDF's file name, as cited
	Question string `json:"question"`
	Pages    []int  `json:"pages"`
	Note     string `json:"note,omitempty"` // why these pages answer it
}

// PageHit is one retrieved passage, reduced to what a citation names: the
// file and the 1-based PDF page.
type PageHit struct {
	File string `json:"file"`
	Page int    `json:"page"`
}

// PageRetriever returns up to k hits for question, best first. file is the
// PDF the question is about: a retriever may search that document alone
// or the whole corpus (a hit then counts only if its File is file). Hits
// are used as returned: several hits on one page each take a rank, as they
// would each take a place among the sources of an answer.
type PageRetriever func(ctx context.Context, file, question string, k int) ([]PageHit, error)

// PageResult is the outcome of one question.
type PageResult struct {
	ID   string `json:"id"`
	File string `json:"file"`
	// Rank is the 1-based rank of the first hit on an answer page among
	// the first PageMRRCutoff hits, 0 if there is none.
	Rank int `json:"rank"`
	// Hit tells whether an answer page is among the first PageHitCutoff
	// hits (1 <= Rank <= PageHitCutoff).
	Hit bool `json:"hit"`
	// Top holds the first PageHitCutoff hits, to show what came instead.
	Top []PageHit `json:"top"`
}

// PageScore aggregates the results of a set of questions.
type PageScore struct {
	Questions int     `json:"questions"`
	Hits      int     `json:"hits"`   // questions with a page hit@5
	HitAt5    float64 `json:"hit@5"`  // Hits / Questions
	MRR       float64 `json:"mrr@10"` // mean of 1/Rank (0 when not found)
}

// FileScore is the PageScore of the questions about one file.
type FileScore struct {
	File string `json:"file"`
	PageScore
}

// PageReport is what Pages measures: the overall score (a mean over
// questions), one score per file (sorted by file name) and each
// question's result (in the order of the question set).
type PageReport struct {
	Overall PageScore    `json:"overall"`
	ByFile  []FileScore  `json:"by_file"`
	Results []PageResult `json:"results"`
}

// Failures returns the results without a page hit@5.
func (r PageReport) Failures() []PageResult {
	var out []PageResult
	for _, res := range r.Results {
		if !res.Hit {
			out = append(out, res)
		}
	}
	return out
}

// Pages asks retrieve for the first PageMRRCutoff hits of every question
// and scores them at the page level: page hit@5 (an answer page of the
// question's file among the first PageHitCutoff hits) and the reciprocal
// rank of the first hit on an answer page. A question without answer
// pages scores zero. An error from retrieve stops the evaluation; so does
// the cancellation of ctx, checked before each question.
func Pages(ctx context.Context, questions []PageQuestion, retrieve PageRetriever) (PageReport, error) {
	var rep PageReport
	byFile := map[string]*PageScore{}
	var mrr float64
	fileMRR := map[string]float64{}
	for _, q := range questions {
		if err := ctx.Err(); err != nil {
			return PageReport{}, err
		}
		hits, err := retrieve(ctx, q.File, q.Question, PageMRRCutoff)
		if err != nil {
			return PageReport{}, fmt.Errorf("eval: question %s: %w", q.ID, err)
		}
		res := scoreQuestion(q, hits)
		rep.Results = append(rep.Results, res)

		s := byFile[q.File]
		if s == nil {
			s = &PageScore{}
			byFile[q.File] = s
		}
		rr := reciprocal(res.Rank)
		for _, sc := range []*PageScore{&rep.Overall, s} {
			sc.Questions++
			if res.Hit {
				sc.Hits++
			}
		}
		mrr += rr
		fileMRR[q.File] += rr
	}
	rep.Overall.finish(mrr)
	for file, s := range byFile {
		s.finish(fileMRR[file])
		rep.ByFile = append(rep.ByFile, FileScore{File: file, PageScore: *s})
	}
	slices.SortFunc(rep.ByFile, func(a, b FileScore) int { return cmp.Compare(a.File, b.File) })
	return rep, nil
}

// scoreQuestion finds the first hit on an answer page of q.
func scoreQuestion(q PageQuestion, hits []PageHit) PageResult {
	res := PageResult{ID: q.ID, File: q.File}
	res.Top = slices.Clone(hits[:min(len(hits), PageHitCutoff)])
	for i, h := range hits[:min(len(hits), PageMRRCutoff)] {
		if h.File == q.File && slices.Contains(q.Pages, h.Page) {
			res.Rank = i + 1
			break
		}
	}
	res.Hit = res.Rank >= 1 && res.Rank <= PageHitCutoff
	return res
}

func reciprocal(rank int) float64 {
	if rank <= 0 {
		return 0
	}
	return 1 / float64(rank)
}

// finish turns the sums into means.
func (s *PageScore) finish(mrrSum float64) {
	if s.Questions == 0 {
		return
	}
	n := float64(s.Questions)
	s.HitAt5 = float64(s.Hits) / n
	s.MRR = mrrSum / n
}

// LoadPageQuestions reads a question set from a JSONL file (see
// ReadPageQuestions).
func LoadPageQuestions(path string) ([]PageQuestion, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	qs, err := ReadPageQuestions(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return qs, nil
}

// ReadPageQuestions decodes one PageQuestion per line of r. Blank lines
// are skipped. Every question needs a unique id, a file, a question and at
// least one page (>= 1); an unknown field is an error (a misspelt "pages"
// would otherwise leave a question unanswerable). Errors wrap
// ErrBadQuestions.
func ReadPageQuestions(r io.Reader) ([]PageQuestion, error) {
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
		var q PageQuestion
		if err := dec.Decode(&q); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrBadQuestions, n, err)
		}
		if err := q.check(); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrBadQuestions, n, err)
		}
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

// check reports what a question is missing.
func (q PageQuestion) check() error {
	switch {
	case q.ID == "":
		return errors.New("question without id")
	case q.File == "":
		return fmt.Errorf("%s: no file", q.ID)
	case strings.TrimSpace(q.Question) == "":
		return fmt.Errorf("%s: empty question", q.ID)
	case len(q.Pages) == 0:
		return fmt.Errorf("%s: no answer page", q.ID)
	}
	for _, p := range q.Pages {
		if p < 1 {
			return fmt.Errorf("%s: page %d (pages are 1-based)", q.ID, p)
		}
	}
	return nil
}
