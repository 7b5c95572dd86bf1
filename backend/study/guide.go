package study

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"vika/backend/corpus"
	"vika/backend/llm"
	"vika/backend/prompt"
)

// Guide is a study guide of a document or one of its sections, or of
// several documents.
type Guide struct {
	// DocID, File, From and To are the document and pages studied when
	// there is one document; for several, DocID is "", File lists their
	// names and From and To are 0: Docs says what was read of each.
	DocID   string    `json:"doc_id"`
	File    string    `json:"file"`
	Section string    `json:"section,omitempty"`
	From    int       `json:"from"` // pages studied, inclusive
	To      int       `json:"to"`
	Docs    []Studied `json:"docs"`
	Lang    string    `json:"lang,omitempty"`
	Summary []Line    `json:"summary"`
	Terms   []Term    `json:"terms"`
	QAs     []QA      `json:"questions"`
	// Outline is the extractive outline made without a model (each
	// section's title and its most central passage); nil otherwise.
	Outline []OutlineItem `json:"outline,omitempty"`
	Plan    Plan          `json:"plan"`
	// Models lists the models that answered, in order of first use.
	Models []string `json:"models,omitempty"`
	// Sent and Received are the tokens the providers reported (0 when
	// they report none).
	Sent     int `json:"sent_tokens"`
	Received int `json:"received_tokens"`
	// Notices are the router's and fallback's notices, in order.
	Notices []llm.Notice `json:"notices,omitempty"`
}

// Unverified counts the lines the checker could not verify.
func (g Guide) Unverified() int {
	n := 0
	for _, l := range g.Summary {
		n += b2i(!l.Check.Verified)
	}
	for _, t := range g.Terms {
		n += b2i(!t.Definition.Check.Verified)
	}
	for _, q := range g.QAs {
		n += b2i(!q.Answer.Check.Verified)
	}
	return n
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Guide makes the study guide of sc: map over the batches, reduce the
// notes, check every line. Without a model it is an extractive outline.
// progress (may be nil) hears of each request answered; ctx stops it.
func (s *Studier) Guide(ctx context.Context, sc Scope, o Options, progress func(Progress)) (Guide, error) {
	if progress == nil {
		progress = func(Progress) {}
	}
	m, err := s.resolve(ctx, sc)
	if err != nil {
		return Guide{}, err
	}
	plan, batches := s.plan(ctx, m, o)
	g := Guide{Section: m.section, Docs: m.studied(), Lang: m.lang(o), Plan: plan}
	g.DocID, g.File, g.From, g.To = m.head()
	if plan.Extractive {
		g.Outline = s.outline(m)
		return g, nil
	}
	j := &job{s: s, o: o, g: &g, total: plan.Requests, progress: progress}
	notes := make([]string, 0, len(batches))
	for _, b := range batches {
		p, err := j.run(ctx, "map", prompt.StudyInput{Task: prompt.StudyNotes, Sources: b, Lang: g.Lang})
		if err != nil {
			return g, err
		}
		notes = append(notes, p.format())
	}
	for len(notes) > 1 {
		group := groupSize(plan.BatchTokens)
		var next []string
		for i := 0; i < len(notes); i += group {
			if i+1 == len(notes) { // a lone trailing note goes up as it is
				next = append(next, notes[i])
				break
			}
			p, err := j.run(ctx, "reduce", prompt.StudyInput{Task: prompt.StudyMerge, Notes: notes[i:min(i+group, len(notes))], Lang: g.Lang})
			if err != nil {
				return g, err
			}
			next = append(next, p.format())
		}
		notes = next
	}
	g.fill(parseLines(notes[0]), m.hits)
	return g, nil
}

// job runs a guide's requests one after the other.
type job struct {
	s        *Studier
	o        Options
	g        *Guide
	done     int
	total    int
	progress func(Progress)
}

// run asks one request and reads its reply's lines. A reply with no line
// in the format asked for (prose, a refusal, a format of the model's own)
// is refused (llm.Sink.Accept): the next model is asked for the same
// request, with a fallback notice. When no model's reply has a line (the
// models that answered wrote none, the others failed), the job fails
// with ErrUnformatted rather than going on without that batch:
// a guide or deck silently thinner than its plan, or empty, would be
// shown as done. A reply with some lines is kept as it is.
func (j *job) run(ctx context.Context, stage string, in prompt.StudyInput) (parsed, error) {
	req := prompt.Study(in)
	req.MaxTokens = NoteTokens
	accept := func(text string) error {
		if !parseLines(text).holds(in.Task) {
			return errNoLines(in.Task)
		}
		return nil
	}
	a, err := j.s.ask(ctx, req, j.o, accept, func(n llm.Notice) { j.g.Notices = append(j.g.Notices, n) },
		func(d time.Duration) {
			j.progress(Progress{Stage: stage, Done: j.done, Total: j.total, Waiting: int(d.Round(time.Second) / time.Second)})
		})
	j.g.Sent += a.usage.InputTokens
	j.g.Received += a.usage.OutputTokens
	if a.model != "" && !slices.Contains(j.g.Models, a.model) {
		j.g.Models = append(j.g.Models, a.model)
	}
	if err == nil && accept(a.text) != nil { // a reply that broke off is not judged by the fallback
		err = unformatted(in.Task, []string{cmp.Or(a.name, a.model)})
	} else if names, ok := unformattedIn(err); ok {
		err = unformatted(in.Task, names)
	}
	if err != nil {
		return parsed{}, fmt.Errorf("study guide, request %d of %d: %w", j.done+1, j.total, err)
	}
	j.done++
	j.progress(Progress{Stage: stage, Done: j.done, Total: j.total})
	return parseLines(a.text), nil
}

// fill checks each line of the merged guide against the passages.
func (g *Guide) fill(p parsed, hits []corpus.Hit) {
	for _, s := range p.summary {
		g.Summary = append(g.Summary, Line{Text: s, Check: checkLine(s, hits)})
	}
	for _, t := range p.terms {
		// The term names the claim: "Attention: a function mapping ..." is checked whole.
		c := checkLine(t[0]+": "+t[1], hits)
		// The chips sit in the definition shown: the offsets move past "term: ".
		shift := len(t[0]) + len(": ")
		for i := range c.Citations {
			c.Citations[i].Start -= shift
			c.Citations[i].End -= shift
		}
		g.Terms = append(g.Terms, Term{Term: t[0], Definition: Line{Text: t[1], Check: c}})
	}
	for _, q := range p.qas {
		if q[1] != "" {
			g.QAs = append(g.QAs, QA{Question: q[0], Answer: Line{Text: q[1], Check: checkLine(q[1], hits)}})
		}
	}
}

// Recheck checks every line of g, a guide kept outside the session (the
// document cache, or a course file whose verdicts are claims), against
// its scope's passages in this session as Guide does, and makes its
// extractive outline again from them, and says what it studied (DocID,
// File, From, To, Docs) as the scope is now; it fails when the scope is
// not in the session.
func (s *Studier) Recheck(ctx context.Context, g Guide) (Guide, error) {
	m, err := s.resolve(ctx, Scope{DocID: g.DocID, Section: g.Section})
	if err != nil {
		return Guide{}, err
	}
	var p parsed
	for _, l := range g.Summary {
		p.summary = append(p.summary, l.Text)
	}
	for _, t := range g.Terms {
		p.terms = append(p.terms, [2]string{t.Term, t.Definition.Text})
	}
	for _, q := range g.QAs {
		p.qas = append(p.qas, [2]string{q.Question, q.Answer.Text})
	}
	g.Summary, g.Terms, g.QAs = nil, nil, nil
	g.fill(p, m.hits)
	if g.Outline != nil {
		g.Outline = s.outline(m)
	}
	// What was studied is the scope's in this session, not the file's claim.
	g.DocID, g.File, g.From, g.To = m.head()
	g.Docs = m.studied()
	return g, nil
}
