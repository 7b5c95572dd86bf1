package study

import (
	"context"
	"unicode/utf8"

	"vika/backend/corpus"
	"vika/backend/llm"
	"vika/backend/prompt"
)

// The planning constants (docs/study.md states the formula).
const (
	// CharsPerToken is the estimate of characters per token.
	CharsPerToken = 4
	// MaxBatchTokens caps a batch's passages, whatever the model's
	// context, so that one request stays within the free tiers'
	// per-minute token limits and the notes stay focused.
	MaxBatchTokens = 12000
	// NoteTokens is the output cap of one map or reduce request: the
	// most a batch's notes may weigh in the reduce.
	NoteTokens = 2048
)

// Plan is what a study guide will cost, announced before it starts.
type Plan struct {
	Model       string `json:"model,omitempty"` // "provider/id" sized for ("" without a model)
	ModelName   string `json:"model_name,omitempty"`
	Context     int    `json:"context,omitempty"` // the model's context window, tokens
	BatchTokens int    `json:"batch_tokens"`      // passages' tokens a batch may hold
	Documents   int    `json:"documents"`         // documents read (those with passages)
	Passages    int    `json:"passages"`
	Pages       int    `json:"pages"`
	Batches     int    `json:"batches"`  // map requests
	Reduces     int    `json:"reduces"`  // reduce requests (0 when one batch holds it all)
	Requests    int    `json:"requests"` // Batches + Reduces; 0 for the extractive outline
	// InputTokens is the estimate of the tokens sent: the map requests'
	// exactly as built, the reduces' at their upper bound (each batch's
	// notes at NoteTokens). OutputTokens is the most the model may write.
	InputTokens  int  `json:"input_tokens"`
	OutputTokens int  `json:"output_tokens"`
	Extractive   bool `json:"extractive"` // no model: an extractive outline, no request
}

// Tokens estimates the tokens of text: its characters / CharsPerToken,
// rounded up.
func Tokens(text string) int {
	return (utf8.RuneCountInString(text) + CharsPerToken - 1) / CharsPerToken
}

// requestTokens estimates the tokens of a request as sent.
func requestTokens(req llm.Request) int {
	n := Tokens(req.System)
	for _, m := range req.Messages {
		n += Tokens(m.Content)
	}
	return n
}

// PlanGuide returns the plan of a study guide of sc without asking any
// model: the batches are sized to the model the router picks first.
func (s *Studier) PlanGuide(ctx context.Context, sc Scope, o Options) (Plan, error) {
	m, err := s.resolve(ctx, sc)
	if err != nil {
		return Plan{}, err
	}
	p, _ := s.plan(ctx, m, o)
	return p, nil
}

// plan sizes the batches of m and counts the requests.
func (s *Studier) plan(ctx context.Context, m material, o Options) (Plan, [][]corpus.Hit) {
	p := Plan{Documents: len(m.docs), Passages: len(m.hits), Pages: m.pages()}
	model, ok := s.route(ctx, o)
	if !ok {
		p.Extractive, p.BatchTokens = true, MaxBatchTokens
		return p, nil
	}
	p.Model, p.ModelName, p.Context = model.Key(), model.Name, model.Context
	p.BatchTokens = batchTokens(model)
	if o.BatchTokens > 0 {
		p.BatchTokens = min(p.BatchTokens, max(o.BatchTokens, 200))
	}
	batches := split(m.hits, p.BatchTokens)
	p.Batches = len(batches)
	for _, b := range batches {
		p.InputTokens += requestTokens(prompt.Study(prompt.StudyInput{Task: prompt.StudyNotes, Sources: b, Lang: m.lang(o)}))
	}
	merge := requestTokens(prompt.Study(prompt.StudyInput{Task: prompt.StudyMerge, Lang: m.lang(o)}))
	for _, g := range reduceLevels(p.Batches, groupSize(p.BatchTokens)) {
		for _, n := range g {
			if n > 1 { // a lone note is not merged: no request
				p.Reduces++
				p.InputTokens += merge + n*NoteTokens
			}
		}
	}
	p.Requests = p.Batches + p.Reduces
	p.OutputTokens = p.Requests * min(NoteTokens, outCap(model))
	return p, batches
}

// route is the model the router would ask first; false without one.
func (s *Studier) route(ctx context.Context, o Options) (llm.Model, bool) {
	if s.svc == nil {
		return llm.Model{}, false
	}
	plan, err := s.svc.Route(ctx, llm.Query{Question: "study guide", Model: o.Model})
	if err != nil || len(plan.Order) == 0 {
		return llm.Model{}, false
	}
	return plan.Order[0], true
}

// batchTokens is the passages' budget of one request: the model's context
// less its output cap and the instructions, at most MaxBatchTokens.
func batchTokens(m llm.Model) int {
	b := m.Context - outCap(m) - (prompt.StudyOverhead()+CharsPerToken-1)/CharsPerToken
	if m.Context <= 0 {
		b = MaxBatchTokens
	}
	return max(min(b, MaxBatchTokens), 1000)
}

func outCap(m llm.Model) int {
	if m.MaxOutputTokens > 0 {
		return m.MaxOutputTokens
	}
	return NoteTokens
}

// passageTokens is what one passage weighs in a request.
func passageTokens(h corpus.Hit) int {
	return Tokens(h.Text) + (len(h.Label)+prompt.SourceOverhead+prompt.KindOverhead(h.Kind)+CharsPerToken-1)/CharsPerToken
}

// split cuts hits, in order, into batches of at most budget tokens (a
// passage heavier than the budget goes alone).
func split(hits []corpus.Hit, budget int) [][]corpus.Hit {
	var out [][]corpus.Hit
	var cur []corpus.Hit
	used := 0
	for _, h := range hits {
		t := passageTokens(h)
		if len(cur) > 0 && used+t > budget {
			out = append(out, cur)
			cur, used = nil, 0
		}
		cur = append(cur, h)
		used += t
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// groupSize is how many batches' notes one reduce merges.
func groupSize(budget int) int { return max(budget/NoteTokens, 2) }

// reduceLevels returns, for each level of the reduce, the number of notes
// each of its groups holds (a group of one, a lone trailing note, goes up
// to the next level without a request): none when one batch holds
// everything.
func reduceLevels(notes, group int) [][]int {
	var levels [][]int
	for notes > 1 {
		var lvl []int
		for left := notes; left > 0; left -= group {
			lvl = append(lvl, min(left, group))
		}
		levels = append(levels, lvl)
		notes = len(lvl)
	}
	return levels
}
