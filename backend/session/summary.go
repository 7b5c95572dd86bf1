package session

import (
	"context"
	"errors"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/llm"
	"vika/backend/prompt"
	"vika/backend/study"
)

// summarizeAfterAdd starts summarising a document just added when the
// settings ask for it (Settings.Summarize), like describeAfterAdd; a
// problem is that job's failure, never the add's.
func (s *Session) summarizeAfterAdd(p engine.Progress) {
	s.afterAdd(p, func(st Settings) bool { return st.Summarize }, func(docID string) { _, _ = s.Summarize(s.life, docID) })
}

// summarizeOptions are the settings' bounds of a summarising run by model.
func summarizeOptions(st Settings, model string) engine.SummarizeOptions {
	return engine.SummarizeOptions{Max: st.SummarizeMax, Model: model, Prompt: prompt.SummaryVersion}
}

// Summarize starts summarising a document's passages (the summary index)
// with the models the router picks for background jobs, and returns the
// job id; its progress goes out as EventIngestProgress ("summarizing"),
// and Cancel stops it, keeping what was summarised.
func (s *Session) Summarize(ctx context.Context, docID string) (string, error) {
	st, err := s.Settings()
	if err != nil {
		return "", err
	}
	sum, model, err := s.assistant.Summarizer(ctx)
	if err != nil {
		return "", err
	}
	return s.eng.StartSummarize(docID, sum, summarizeOptions(st, model), func(p engine.Progress) { s.emit(EventIngestProgress, p) }), nil
}

// SummarizeLibrary starts summarising every document of the session (one
// job each, as Summarize) and returns the job ids.
func (s *Session) SummarizeLibrary(ctx context.Context) ([]string, error) {
	docs, err := s.eng.Documents(ctx)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, d := range docs {
		id, err := s.Summarize(ctx, d.ID)
		if err != nil {
			return ids, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// SummaryPlan is what summarising the session's documents will cost,
// announced before it starts (Settings, Summary index): one request a
// passage, the tokens estimated as a study guide's are (study.Tokens).
type SummaryPlan struct {
	Model     string `json:"model,omitempty"`      // "provider/id" asked first ("" without a model)
	ModelName string `json:"model_name,omitempty"` // its name
	Local     bool   `json:"local"`                // the model runs on this machine (Ollama)
	Documents int    `json:"documents"`            // documents with passages to summarise
	// Requests is how many passages would be summarised now: one request
	// each. Already counts those summarised before, OverCap those left out
	// by the cap a document, Short those too short to summarise.
	Requests int `json:"requests"`
	Already  int `json:"already"`
	// Kept counts the passages whose summary by the model asked first is
	// kept (the document cache, a course file): summarised with no
	// request.
	Kept    int `json:"kept"`
	OverCap int `json:"over_cap"`
	Short   int `json:"short"`
	// InputTokens estimates the tokens sent (the requests as built);
	// OutputTokens is the most the model may write.
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// PerDocument is the cap of passages summarised a document.
	PerDocument int `json:"per_document"`
}

// SummaryPlan returns the plan of summarising every document of the
// session with the settings in memory, without asking any model.
func (s *Session) SummaryPlan(ctx context.Context) (SummaryPlan, error) {
	st, err := s.Settings()
	if err != nil {
		return SummaryPlan{}, err
	}
	p := SummaryPlan{PerDocument: st.SummarizeMax}
	if m, ok := s.svc.FirstJobModel(ctx); ok {
		p.Model, p.ModelName, p.Local = m.Key(), m.Name, m.Local
	}
	docs, err := s.eng.Documents(ctx)
	if err != nil {
		return p, err
	}
	for _, d := range docs {
		todo, rep, err := s.eng.SummaryTargets(ctx, d.ID, summarizeOptions(st, p.Model))
		if errors.Is(err, corpus.ErrNotFound) {
			continue // removed meanwhile
		}
		if err != nil {
			return p, err
		}
		if len(todo) > 0 {
			p.Documents++
		}
		p.Requests += len(todo)
		p.Already += rep.Already
		p.OverCap += rep.OverCap
		p.Short += rep.Short
		o := summarizeOptions(st, p.Model)
		for _, c := range todo {
			if s.eng.SummaryKept(ctx, d.ID, o, c) {
				p.Kept++
				p.Requests--
				continue
			}
			req := prompt.SummaryRequest(c)
			p.InputTokens += requestTokens(req)
			p.OutputTokens += req.MaxTokens
		}
	}
	return p, nil
}

// requestTokens estimates the tokens of a request as sent (study.Tokens).
func requestTokens(req llm.Request) int {
	n := study.Tokens(req.System)
	for _, m := range req.Messages {
		n += study.Tokens(m.Content)
	}
	return n
}

// Summarizer returns the summary writer the summary index uses (through
// the router, for background jobs) and the model it asks first; the
// command line's evaluation runs it over passages it indexes itself.
func (s *Session) Summarizer(ctx context.Context) (engine.Summarizer, string, error) {
	return s.assistant.Summarizer(ctx)
}

// SummarizeNow summarises a document's passages and waits (the command
// line's vika ask --summaries), with the settings' cap.
func (s *Session) SummarizeNow(ctx context.Context, docID string) (engine.SummarizeReport, error) {
	st, err := s.Settings()
	if err != nil {
		return engine.SummarizeReport{}, err
	}
	sum, model, err := s.assistant.Summarizer(ctx)
	if err != nil {
		return engine.SummarizeReport{}, err
	}
	return s.eng.Summarize(ctx, docID, sum, summarizeOptions(st, model))
}
