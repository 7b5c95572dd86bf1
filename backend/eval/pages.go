package eval

import (
	"bufio"
	"bytes"
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
	PageMRRCutoff = 10 // MRR@10 over hits
	// SourcesCutoff is the number of passages an answer's prompt holds
	// (rag.DefaultK): Sources@8 says whether an answer page is among the
	// pages of the first 8 hits, the pages the model reads.
	SourcesCutoff = 8
	// PageDepth is the number of hits Pages asks for, from which the
	// distinct pages are ranked.
	PageDepth = 50
)

// Question kinds (PageQuestion.Kind): where on the page the answer is.
var PageKinds = []string{"text", "table", "figure", "slide", "scanned"}

// Splits of the question set (PageQuestion.Split): tune for choosing
// settings, test for reporting them.
const (
	SplitTune = "tune"
	SplitTest = "test"
)

// ErrBadQuestions is wrapped by the errors of ReadPageQuestions for a
// malformed question set.
var ErrBadQuestions = errors.New("malformed page question set")

// PageQuestion is one question of a page-level evaluation set
// (the repository's testdata/pdf_questions.jsonl): a question about one PDF and the
// 1-based PDF pages that hold its answer.
type PageQuestion struct {
	ID       string `json:"id"`
	File     string `json:"file"` // the PDF's file name, as cited
	Question string `json:"question"`
	Pages    []int  `json:"pages"`
	Note     string `json:"note,omitempty"` // why these pages answer it
	Kind     string `json:"kind"`           // one of PageKinds
	Split    string `json:"split"`          // SplitTune or SplitTest
	// Answer and Sources are MMLongBench-Doc's (ReadMMLongBench): the
	// published answer and the kinds of evidence on its pages.
	Answer  string   `json:"answer,omitempty"`
	Sources []string `json:"sources,omitempty"`
}

// Answerable reports whether q has answer pages: an MMLongBench-Doc
// question may have none (its answer is not in the document).
func (q PageQuestion) Answerable() bool { return len(q.Pages) > 0 }

// SelectSplit returns the questions of split ("tune" or "test"); "all"
// or "" returns qs.
func SelectSplit(qs []PageQuestion, split string) ([]PageQuestion, error) {
	switch split {
	case "", "all":
		return qs, nil
	case SplitTune, SplitTest:
	default:
		return nil, fmt.Errorf("eval: unknown split %q (want tune, test or all)", split)
	}
	var out []PageQuestion
	for _, q := range qs {
		if q.Split == split {
			out = append(out, q)
		}
	}
	return out, nil
}

// PageHit is one retrieved passage, reduced to what a citation names: the
// file and the 1-based PDF page.
type PageHit struct {
	File string `json:"file"`
	Page int    `json:"page"`
	// Runes is the length of the hit's passage (0 when the retriever
	// does not say); a packing of the prompt by length is measured with it.
	Runes int `json:"runes,omitempty"`
	// Region tells that the passage is a table's, figure's or formula's
	// (false when the retriever does not say).
	Region bool `json:"region,omitempty"`
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
	// PageRank is the 1-based rank of the first answer page among the
	// distinct pages of the hits, in order (several hits on one page count
	// once), 0 if none of the PageDepth hits is on one.
	PageRank int `json:"page_rank"`
	// ByRegion tells that the first hit on the answer page (at PageRank)
	// is a table's, figure's or formula's passage: the page stands by
	// its region rather than by its running text.
	ByRegion bool `json:"by_region,omitempty"`
	// Sources tells whether an answer page is among the pages of the first
	// SourcesCutoff hits, the passages of an answer's prompt.
	Sources bool `json:"sources"`
	// SourceRank is the 1-based position of the first hit on an answer
	// page among all the hits (0 if none): the answer page is among the
	// sources of a prompt of K passages when 1 <= SourceRank <= K.
	SourceRank int `json:"source_rank"`
	// Runes8 is the length of the first SourcesCutoff passages (what
	// the prompt holds now), and Packed the number of hits the prompt
	// would hold if packed to SourceBudget runes (PackCount).
	Runes8 int `json:"runes@8"`
	Packed int `json:"packed"`
	// HitRunes holds the lengths of the first 3*SourcesCutoff hits, to
	// score other packings.
	HitRunes []int `json:"hit_runes,omitempty"`
	// Top holds the first PageHitCutoff hits, to show what came instead.
	Top []PageHit `json:"top"`
}

// SourceBudget is the length, in runes, that a prompt packed by length
// may hold: the SourcesCutoff passages of the chunker's target length
// (chunk.DefaultTarget, 900 runes), the size the prompt was designed for.
const SourceBudget = SourcesCutoff * 900

// PackCount is the number of passages of the given lengths (best first) a
// prompt packed to budget runes holds: at least min (as many as there
// are), then more while their total stays within budget.
func PackCount(runes []int, min, budget int) int {
	total := 0
	for i, r := range runes {
		total += r
		if i >= min && total > budget {
			return i
		}
	}
	return len(runes)
}

// PageScore aggregates the results of a set of questions.
type PageScore struct {
	Questions int     `json:"questions"`
	Hits      int     `json:"hits"`   // questions with a page hit@5
	HitAt5    float64 `json:"hit@5"`  // Hits / Questions
	MRR       float64 `json:"mrr@10"` // mean of 1/Rank (0 when not found)
	// Over distinct pages (PageResult.PageRank): the share of questions
	// whose first answer page ranks first, in the top 5, in the top 8, and
	// the mean of 1/PageRank.
	PageHit1 float64 `json:"page_hit@1"`
	PageHit5 float64 `json:"page_hit@5"`
	PageHit8 float64 `json:"page_hit@8"`
	PageMRR  float64 `json:"page_mrr"`
	// Sources8 is the share of questions with PageResult.Sources.
	Sources8 float64 `json:"sources@8"`
	// ByRegion is the share of questions whose answer page, when found,
	// stands by a region passage (PageResult.ByRegion), and Found the
	// number of questions whose answer page was found (PageRank >= 1).
	ByRegion float64 `json:"by_region"`
	Found    int     `json:"found"`
}

// add counts res in s (sums; finish turns them into means).
func (s *PageScore) add(res PageResult) {
	s.Questions++
	if res.Hit {
		s.Hits++
	}
	s.MRR += reciprocal(res.Rank)
	s.PageMRR += reciprocal(res.PageRank)
	for _, c := range []struct {
		v   *float64
		cut int
	}{{&s.PageHit1, 1}, {&s.PageHit5, 5}, {&s.PageHit8, 8}} {
		if res.PageRank >= 1 && res.PageRank <= c.cut {
			*c.v++
		}
	}
	if res.Sources {
		s.Sources8++
	}
	if res.PageRank >= 1 {
		s.Found++
	}
	if res.ByRegion {
		s.ByRegion++
	}
}

// KindScore is the PageScore of the questions of one kind.
type KindScore struct {
	Kind string `json:"kind"`
	PageScore
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
	ByKind  []KindScore  `json:"by_kind"`
	Results []PageResult `json:"results"`
	// Unanswerable counts the questions without answer pages, which
	// Pages does not score.
	Unanswerable int `json:"unanswerable"`
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

// Pages asks retrieve for the first PageDepth hits of every question and
// scores them at the page level: page hit@5 and MRR@10 over hits as
// returned (an answer page of the question's file among the first
// PageHitCutoff hits), hit@1, @5, @8 and MRR over distinct pages, and
// Sources@8. A question without answer pages is not scored (it is
// counted in PageReport.Unanswerable). An error from
// retrieve stops the evaluation; so does the cancellation of ctx, checked
// before each question.
func Pages(ctx context.Context, questions []PageQuestion, retrieve PageRetriever) (PageReport, error) {
	var rep PageReport
	byFile := map[string]*PageScore{}
	byKind := map[string]*PageScore{}
	for _, q := range questions {
		if err := ctx.Err(); err != nil {
			return PageReport{}, err
		}
		if !q.Answerable() {
			rep.Unanswerable++
			continue
		}
		hits, err := retrieve(ctx, q.File, q.Question, PageDepth)
		if err != nil {
			return PageReport{}, fmt.Errorf("eval: question %s: %w", q.ID, err)
		}
		res := scoreQuestion(q, hits)
		rep.Results = append(rep.Results, res)
		for _, g := range []struct {
			m   map[string]*PageScore
			key string
		}{{byFile, q.File}, {byKind, q.Kind}} {
			if g.m[g.key] == nil {
				g.m[g.key] = &PageScore{}
			}
			g.m[g.key].add(res)
		}
		rep.Overall.add(res)
	}
	rep.Overall.finish()
	for file, s := range byFile {
		s.finish()
		rep.ByFile = append(rep.ByFile, FileScore{File: file, PageScore: *s})
	}
	slices.SortFunc(rep.ByFile, func(a, b FileScore) int { return cmp.Compare(a.File, b.File) })
	for kind, s := range byKind {
		s.finish()
		rep.ByKind = append(rep.ByKind, KindScore{Kind: kind, PageScore: *s})
	}
	slices.SortFunc(rep.ByKind, func(a, b KindScore) int { return cmp.Compare(a.Kind, b.Kind) })
	return rep, nil
}

// scoreQuestion finds the first hit on an answer page of q.
func scoreQuestion(q PageQuestion, hits []PageHit) PageResult {
	res := PageResult{ID: q.ID, File: q.File}
	res.Top = slices.Clone(hits[:min(len(hits), PageHitCutoff)])
	answer := func(h PageHit) bool { return h.File == q.File && slices.Contains(q.Pages, h.Page) }
	for i, h := range hits[:min(len(hits), PageMRRCutoff)] {
		if answer(h) {
			res.Rank = i + 1
			break
		}
	}
	res.Hit = res.Rank >= 1 && res.Rank <= PageHitCutoff
	type page struct {
		file string
		n    int
	}
	seen := map[page]bool{}
	runes := make([]int, len(hits))
	for i, h := range hits {
		runes[i] = h.Runes
		if i < SourcesCutoff {
			res.Runes8 += h.Runes
		}
		if res.SourceRank == 0 && answer(h) {
			res.SourceRank = i + 1
		}
		if p := (page{h.File, h.Page}); !seen[p] && res.PageRank == 0 {
			seen[p] = true
			if answer(h) {
				res.PageRank = len(seen)
				res.Sources = i < SourcesCutoff
				res.ByRegion = h.Region
			}
		}
	}
	res.Packed = PackCount(runes, SourcesCutoff, SourceBudget)
	if slices.ContainsFunc(runes, func(n int) bool { return n > 0 }) {
		res.HitRunes = runes[:min(len(runes), 3*SourcesCutoff)]
	}
	return res
}

func reciprocal(rank int) float64 {
	if rank <= 0 {
		return 0
	}
	return 1 / float64(rank)
}

// finish turns the sums of add into means.
func (s *PageScore) finish() {
	if s.Questions == 0 {
		return
	}
	n := float64(s.Questions)
	s.HitAt5 = float64(s.Hits) / n
	if s.Found > 0 {
		s.ByRegion /= float64(s.Found)
	}
	for _, v := range []*float64{&s.MRR, &s.PageMRR, &s.PageHit1, &s.PageHit5, &s.PageHit8, &s.Sources8} {
		*v /= n
	}
}

// LoadPageQuestions reads a question set from a JSONL file: the
// repository's format (ReadPageQuestions), MMLongBench-Doc's
// (ReadMMLongBench) or a student set's (ReadStudentQuestions), told apart
// by the fields of its first line.
func LoadPageQuestions(path string) ([]PageQuestion, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	read := ReadPageQuestions
	first, _, _ := bytes.Cut(bytes.TrimSpace(data), []byte("\n"))
	switch {
	case isMMLongBench(first):
		read = ReadMMLongBench
	case isStudentSet(first):
		read = ReadStudentQuestions
	}
	qs, err := read(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return qs, nil
}

// ReadPageQuestions decodes one PageQuestion per line of r. Blank lines
// are skipped. Every question needs a unique id, a file, a question, at
// least one page (>= 1), a kind (PageKinds) and a split (tune or test); an unknown field is an error (a misspelt "pages"
// would otherwise leave a question unanswerable). Errors wrap
// ErrBadQuestions.
func ReadPageQuestions(r io.Reader) ([]PageQuestion, error) {
	return readQuestions(r, func(line string) (PageQuestion, error) {
		var q PageQuestion
		if err := decodeStrict(line, &q); err != nil {
			return q, err
		}
		return q, q.check()
	})
}

// readQuestions reads one question per non-blank line of r with parse and
// checks that the ids are unique and that there is at least one; errors
// wrap ErrBadQuestions with the line's number.
func readQuestions(r io.Reader, parse func(line string) (PageQuestion, error)) ([]PageQuestion, error) {
	var out []PageQuestion
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		q, err := parse(line)
		if err != nil {
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

// decodeStrict decodes one JSON line into v; an unknown field is an error.
func decodeStrict(line string, v any) error {
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
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
	case !slices.Contains(PageKinds, q.Kind):
		return fmt.Errorf("%s: kind %q (want one of %s)", q.ID, q.Kind, strings.Join(PageKinds, ", "))
	case q.Split != SplitTune && q.Split != SplitTest:
		return fmt.Errorf("%s: split %q (want tune or test)", q.ID, q.Split)
	}
	for _, p := range q.Pages {
		if p < 1 {
			return fmt.Errorf("%s: page %d (pages are 1-based)", q.ID, p)
		}
	}
	return nil
}
