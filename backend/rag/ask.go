package rag

import (
	"context"
	"errors"
	"fmt"
	"log"
	"runtime/debug"
	"slices"
	"strings"

	"vika/backend/cite"
	"vika/backend/corpus"
	"vika/backend/llm"
	"vika/backend/message"
	"vika/backend/metrics"
	"vika/backend/prompt"
)

// Footers of the answers given without a model.
const (
	FooterExtractive = "Model used: none — no language model is available (add an API key in Settings, or start Ollama): the best passages are quoted."
	FooterAbstained  = "Model used: none — no passage of your documents is close enough to the question, so no model was asked."
)

// Ask answers question and returns the finished turn. emit (which may be
// nil) receives the answer's events as Start describes. On cancellation
// the turn holds what arrived, marked cancelled, and the error is the
// context's; when every model failed the error's text is a sentence to
// show. Every question, answered or not, leaves a metrics record.
func (s *Assistant) Ask(ctx context.Context, question string, o Options, emit func(Event)) (Answer, error) {
	if strings.TrimSpace(question) == "" {
		return Answer{}, ErrEmptyQuestion
	}
	if err := o.validate(); err != nil {
		return Answer{}, err
	}
	o, err := s.resolveScope(ctx, o)
	if err != nil {
		return Answer{}, err
	}
	return s.ask(ctx, s.answers.NewID(), question, o, emit)
}

// turn is an answer in progress.
type turn struct {
	s       *Assistant
	a       Answer
	o       Options
	b       *batcher
	sw      *metrics.Stopwatch
	history []prompt.Turn
	conv    int // the conversation the turn belongs to (Assistant.conv)
	r       retrieval
	res     *llm.Result // the model's result, when one was asked
	// imagesSent and imagesWithheld count the crops the answering model
	// was shown, and those meant for it but not sent (it reads none).
	imagesSent, imagesWithheld int
}

func (t *turn) notice(n llm.Notice) {
	t.a.Notices = append(t.a.Notices, n)
	t.b.send(Event{Type: EventNotice, Notice: &n})
}

func (t *turn) status(stage string) { t.b.send(Event{Type: EventStatus, Stage: stage}) }

func (s *Assistant) ask(ctx context.Context, id, question string, o Options, emit func(Event)) (ans Answer, err error) {
	t := &turn{s: s, o: o, b: newBatcher(emit, s.cfg.Flush), sw: metrics.Start(s.cfg.Now), conv: s.conversation()}
	defer func() {
		if p := recover(); p != nil {
			ans, err = t.panicked(p)
		}
	}()
	t.a = Answer{ID: id, Question: strings.TrimSpace(question), Kind: KindLLM,
		Citations: []cite.Citation{}, Sources: []Source{}, FallbackChain: []string{}, Notices: []llm.Notice{}}
	if o.K <= 0 {
		t.o.K = DefaultK
	}
	t.o.K = min(t.o.K, MaxK)
	if o.History {
		t.history = s.history()
	}
	if s.cfg.Warning != "" {
		t.notice(llm.Notice{Kind: llm.NoticeConfig}.Say(message.NoticeConfig, "detail", s.cfg.Warning))
	}

	query := t.a.Question
	if o.History && prompt.IsFollowUp(query, t.history) {
		t.status(StageRewriting)
		if q := s.rewrite(ctx, query, t.history, t.notice); q != query {
			t.a.StandaloneQuestion, query = q, q
		}
	}
	if ctx.Err() != nil {
		return t.cancelled(ctx)
	}

	t.status(StageRetrieving)
	r, err := s.retrieve(ctx, query, t.o, t.o.K, t.notice)
	if err != nil {
		if ctx.Err() != nil {
			return t.cancelled(ctx)
		}
		return t.fail(err)
	}
	t.r = r
	t.a.Sources = sourcesOf(r)
	t.b.send(Event{Type: EventSources, Sources: t.a.Sources})
	t.sw.Lap()

	if t.abstains() {
		t.a.Kind, t.a.Answer, t.a.Footer = KindAbstained, prompt.NotFound(prompt.GuessLang(t.a.Question)), FooterAbstained
		t.b.delta(t.a.Answer)
		return t.done(ctx, nil)
	}
	t.status(StageGenerating)
	return t.generate(ctx)
}

// abstains reports whether retrieval found nothing close enough. In dense
// mode the question's BM25 score does not decide (prompt.Abstain): a
// paraphrase may share no word with its passage. Nor does it alone once a
// cross-encoder has read the candidates of a hybrid search (the box's):
// an English question abstains only when no passage reaches the
// cross-encoder's relevance cutoff either, and a question in another
// language does not abstain on these grounds, since the cross-encoder
// reads English only and half of the French student questions, worded
// apart from their slides, scored under the BM25 threshold (the model,
// told to say "not found", decides then).
func (t *turn) abstains() bool {
	if len(t.r.hits) == 0 {
		return true
	}
	if t.r.hits[0].ChunkID == corpus.SelectionID {
		return false // the student's own passage is there to answer from
	}
	if t.r.stats.Mode == "dense" {
		return false
	}
	min := t.s.cfg.MinBM25
	if t.o.MinBM25 > 0 {
		min = t.o.MinBM25
	}
	weak := prompt.Abstain(t.r.stats.TopLexical, min)
	if t.r.stats.Mode != "hybrid" || t.r.stats.Reranked == 0 || !weak {
		return weak
	}
	if prompt.GuessLang(t.a.Question) != "en" {
		return false
	}
	return slices.Max(t.r.stats.RerankScores) < metrics.RerankerCutoff
}

// generate streams the answer from the routed model, or quotes the best
// passages when no model is available.
func (t *turn) generate(ctx context.Context) (Answer, error) {
	if t.s.llm == nil {
		return t.extractive(ctx, "no model service is configured")
	}
	hits := t.r.hits
	lang := ""
	if prompt.GuessLang(t.a.Question) == "fr" {
		lang = "fr"
	}
	pics, _ := t.s.eng.(Pictures)
	crops := picturesFor(ctx, pics, t.a.Question, t.a.Sources)
	build := func(m llm.Model) llm.Request {
		req := prompt.Build(prompt.Input{Question: t.promptQuestion(), Sources: hits, History: t.history, Style: prompt.StyleFor(m), Lang: lang})
		if m.Vision {
			req = prompt.WithPictures(req, crops)
		}
		return req
	}
	q := llm.Query{Question: t.a.Question, Turns: len(t.history), Vision: len(crops) > 0}
	if t.o.Provider != "" || t.o.Model != "" {
		q.Model = t.o.Provider + "/" + t.o.Model
	}
	var text strings.Builder
	sink := llm.Sink{
		Delta: func(d llm.Delta) error {
			if !d.Footer {
				text.WriteString(d.Text)
				t.b.delta(d.Text)
			}
			return nil
		},
		Notice: t.notice,
	}
	res, err := t.s.llm.AskFor(ctx, q, build, sink)
	t.res = &res
	t.a.Answer, t.a.ModelUsed, t.a.ModelName, t.a.Footer = res.Answer, res.ModelUsed, res.ModelName, res.Footer
	if t.a.Answer == "" {
		t.a.Answer = text.String() // the runner keeps it too; this is belt and braces for a sink error
	}
	for _, a := range res.Chain {
		step := a.Model
		if a.ErrorKind != "" && a.Model != res.ModelUsed {
			step += " (" + a.ErrorKind + ")"
		}
		t.a.FallbackChain = append(t.a.FallbackChain, step)
	}
	t.countImages(res, len(crops))
	var se *llm.StreamError
	switch {
	case err == nil:
		return t.done(ctx, nil)
	case ctx.Err() != nil:
		return t.cancelled(ctx)
	case errors.As(err, &se): // broke off after the first token: what arrived is kept
		t.a.Partial = true
		return t.done(ctx, nil)
	case errors.Is(err, llm.ErrNoModel) && len(res.Chain) == 0:
		return t.extractive(ctx, strings.TrimPrefix(err.Error(), llm.ErrNoModel.Error()+": "))
	}
	return t.fail(err)
}

// countImages records whether the model that answered saw the crops, and
// tells the student when it could not (a text-only model).
func (t *turn) countImages(res llm.Result, n int) {
	if n == 0 || res.ModelUsed == "" {
		return
	}
	for _, m := range res.Plan.Order {
		if m.Key() != res.ModelUsed {
			continue
		}
		if m.Vision {
			t.imagesSent = n
		} else {
			t.imagesWithheld = n
			t.notice(withheldNotice(m, n))
		}
		return
	}
}

// extractive answers with the best passages, quoted, when no model is
// available; why says so in a notice.
func (t *turn) extractive(ctx context.Context, why string) (Answer, error) {
	t.notice(llm.Notice{Kind: llm.NoticeSkipped, Reason: llm.KindOf(llm.ErrNoModel)}.Say(message.NoticeNoModel, "detail", why))
	t.a.Kind, t.a.Footer = KindExtractive, FooterExtractive
	t.a.Answer = prompt.Extractive(t.a.Question, t.r.hits, prompt.GuessLang(t.a.Question))
	t.b.delta(t.a.Answer)
	return t.done(ctx, nil)
}

// cancelled ends a turn stopped by ctx: what arrived is kept.
func (t *turn) cancelled(ctx context.Context) (Answer, error) {
	t.a.Cancelled, t.a.Partial = true, t.a.Answer != ""
	switch {
	case t.a.Footer != "":
	case t.a.ModelUsed != "":
		t.a.Footer = "Model used: " + t.a.ModelName + " (" + t.a.ModelUsed + "); stopped"
	default:
		t.a.Footer = "Model used: none — the answer was stopped before a model wrote anything."
	}
	return t.done(ctx, ctx.Err())
}

// done checks the citations, records the metrics, keeps the turn and
// sends the done event. err is returned as is (the context's, for a
// cancelled turn).
func (t *turn) done(ctx context.Context, err error) (Answer, error) {
	if t.a.Kind != KindAbstained {
		t.a.Citations = cite.Check(t.a.Answer, t.r.hits)
		if t.a.Citations == nil {
			t.a.Citations = []cite.Citation{}
		}
	}
	t.a.Metrics = t.record(ctx)
	t.s.addTurn(t.a, t.conv)
	a := t.a
	t.b.close(Event{Type: EventDone, Answer: &a})
	return t.a, err
}

// fail ends a turn that could not be answered: the metrics are recorded,
// the error event carries a sentence, and the session stays usable.
func (t *turn) fail(err error) (Answer, error) {
	t.a.Metrics = t.record(context.Background())
	err = failed(err)
	var ans *Answer
	if t.a.Answer != "" {
		a := t.a
		ans = &a
	}
	m := message.Of(err)
	t.b.close(Event{Type: EventError, Error: err.Error(), Problem: &m, Answer: ans})
	return t.a, err
}

// ErrInternal is an answer stopped by a bug (a panic): the session stays
// usable and the panic is logged with its stack.
var ErrInternal = errors.New("internal error")

// panicked ends a turn whose code panicked: the panic and its stack go to
// the log, the error event says the answer failed, and what arrived is
// kept in that event. Nothing else of the turn is trusted (no metrics
// record, no turn kept).
func (t *turn) panicked(p any) (Answer, error) {
	log.Printf("vika: answer %s panicked: %v\n%s", t.a.ID, p, debug.Stack())
	err := fmt.Errorf("%w: the answer stopped on an unexpected error (%v); the session goes on", ErrInternal, p)
	var ans *Answer
	if t.a.Answer != "" {
		a := t.a
		ans = &a
	}
	m := message.New(message.Other, "detail", err.Error())
	t.b.close(Event{Type: EventError, Error: m.English(), Problem: &m, Answer: ans})
	return t.a, err
}

// usedHits are the passages the answer was written from (none when it
// abstained).
func (t *turn) usedHits() []corpus.Hit {
	if t.a.Kind == KindAbstained {
		return nil
	}
	return t.r.hits
}
