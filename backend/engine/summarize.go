package engine

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"
	"unicode/utf8"

	"vika/backend/corpus"
	"vika/backend/kept"
	"vika/backend/message"
	"vika/backend/store"
)

// The summary index (opt-in): a text model writes a short summary of each
// passage, kept with it in the session and indexed as the summary list of
// retrieve (retrieve.AddSummaries); a search that finds a summary returns
// its passage, never the summary. It runs as a job like describing
// figures (StartSummarize: progress, cancel, a cap a document, refusals
// recorded per model and not asked again).

// MinSummaryChars is the shortest passage summarised: a shorter one is
// about as short as its summary would be.
const MinSummaryChars = 200

// SummarizeOptions bound the summarising of one document.
type SummarizeOptions struct {
	// Max is the most passages summarised, in document order; the others
	// are counted in SummarizeReport.OverCap. 0 means none.
	Max int
	// Model names the model expected to write the summaries ("provider/id":
	// the router's first choice). A passage whose summary by that model
	// was refused is not asked again; with another model it is.
	Model string
	// Prompt is the version of the summarising prompt (the caller's). A
	// summary kept of a passage by Model and that version (outputs.go)
	// answers without a request.
	Prompt string
	// Progress, when set, is told each passage done, out of the total.
	Progress func(done, total int)
}

// SummarizeReport counts what Summarize did (or, from SummaryTargets,
// what it would do).
type SummarizeReport struct {
	Summarized int `json:"summarized"` // passages summarised now
	// Refused counts the summaries refused now (empty, cut before any
	// text, blocked by the provider's filter): recorded with the passage.
	Refused int `json:"refused"`
	// RefusedBefore counts the passages whose summary by this same model
	// was refused by an earlier run: not asked again.
	RefusedBefore int `json:"refused_before"`
	Already       int `json:"already"`  // passages summarised before, left as they are
	Short         int `json:"short"`    // passages under MinSummaryChars, left out
	OverCap       int `json:"over_cap"` // passages left out by Max
	// Reused counts the passages (among Summarized) whose summary by
	// Model and Prompt was kept (this session, the cache or a course
	// file): no request was made for them.
	Reused int `json:"reused"`
}

// Summarizer writes the summary of a passage and names the model that
// wrote it ("provider/id"). An error wrapping ErrRefused is the model's
// answer refused, not a failure: it is recorded with the passage and the
// run goes on; any other error stops the run.
type Summarizer func(ctx context.Context, c corpus.Chunk) (summary, model string, err error)

// Summarizable reports whether c is a passage a summary is written of:
// text read from the PDF (not a model's description), of a kind that
// holds prose or values (not references, figures' labels or formulas),
// of MinSummaryChars or more.
func Summarizable(c corpus.Chunk) bool {
	return summarizable(c) && utf8.RuneCountInString(strings.TrimSpace(c.Text)) >= MinSummaryChars
}

// summarizable is Summarizable without the length rule.
func summarizable(c corpus.Chunk) bool {
	if c.Described() {
		return false
	}
	switch c.Kind {
	case corpus.ChunkBody, corpus.ChunkFront, corpus.ChunkTable, corpus.ChunkForm, corpus.ChunkNote:
		return strings.TrimSpace(c.Text) != ""
	}
	return false
}

// SummaryTargets returns the passages of a document a Summarize run with o
// would ask a summary of, and the report of what it would leave out.
func (e *Engine) SummaryTargets(ctx context.Context, docID string, o SummarizeOptions) ([]corpus.Chunk, SummarizeReport, error) {
	var rep SummarizeReport
	if e.isClosed() {
		return nil, rep, ErrClosed
	}
	if err := e.checkRead(ctx, docID); err != nil {
		return nil, rep, err
	}
	chunks, err := e.Chunks(ctx, docID)
	if err != nil {
		return nil, rep, err
	}
	kept, err := e.store.Summaries(ctx, docID)
	if err != nil {
		return nil, rep, err
	}
	byChunk := make(map[string]store.Summary, len(kept))
	for _, s := range kept {
		byChunk[s.ChunkID] = s
	}
	var todo []corpus.Chunk
	for _, c := range chunks {
		if !summarizable(c) {
			continue
		}
		s := byChunk[c.ID]
		switch {
		case s.Text != "":
			rep.Already++
		case s.Refusal != nil && s.Refusal.Model == o.Model:
			rep.RefusedBefore++
		case utf8.RuneCountInString(strings.TrimSpace(c.Text)) < MinSummaryChars:
			rep.Short++
		default:
			todo = append(todo, c)
		}
	}
	if len(todo) > o.Max {
		rep.OverCap = len(todo) - max(o.Max, 0)
		todo = todo[:max(o.Max, 0)]
	}
	return todo, rep, nil
}

// Summarize has s write a short summary of each passage of a document (in
// document order, up to o.Max, those of MinSummaryChars or more), keeps
// each with its passage and indexes it as the summary list
// (retrieve.AddSummaries). What is done stays when ctx ends or s fails;
// the error then says why the rest was not done. A passage summarised
// before is not asked again, nor one whose summary by o.Model was refused.
func (e *Engine) Summarize(ctx context.Context, docID string, s Summarizer, o SummarizeOptions) (SummarizeReport, error) {
	todo, rep, err := e.SummaryTargets(ctx, docID, o)
	if err != nil {
		return rep, err
	}
	for i, c := range todo {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		key := passageOutputKey(o.Prompt, o.Model, c)
		if reason, ok := e.keptRefusal(ctx, docID, key, outputPassage); ok {
			// o.Model refused it in an earlier session: not asked again.
			rep.RefusedBefore++
			if err := e.store.SetSummaryRefusal(ctx, docID, c.ID, corpus.Refusal{Model: o.Model, Reason: reason}); err != nil {
				return rep, err
			}
			if o.Progress != nil {
				o.Progress(i+1, len(todo))
			}
			continue
		}
		prior, reused := e.reused(ctx, docID, key)
		text, model := strings.TrimSpace(prior.Text), prior.Model
		var err error
		if reused && prior.Kind == outputPassage && text != "" {
			rep.Reused++
		} else {
			reused = false
			text, model, err = s(ctx, c)
			text = strings.TrimSpace(text)
			if model == "" {
				model = o.Model
			}
		}
		if err == nil && text == "" {
			err = message.Wrap(fmt.Errorf("%w: the model wrote no summary of the passage on page %d", ErrRefused, c.Page), message.RefusedEmpty)
		}
		switch {
		case errors.Is(err, ErrRefused):
			rep.Refused++
			log.Printf("engine: the summary of the passage on page %d: %s refused: %v", c.Page, model, err)
			reason := message.Of(err)
			e.keepOutput(ctx, docID, kept.Output{Kind: outputPassage, Key: passageOutputKey(o.Prompt, model, c), Model: model, Refusal: &reason})
			err = e.store.SetSummaryRefusal(ctx, docID, c.ID, corpus.Refusal{Model: model, Reason: reason})
		case err != nil:
			return rep, err
		default:
			if err = e.addSummary(ctx, c, text); err == nil {
				rep.Summarized++
			}
			if err == nil && !reused {
				// Kept under the model that wrote it: a fallback's summary
				// answers a later run that starts with that model.
				e.keepOutput(ctx, docID, kept.Output{Kind: outputPassage, Key: passageOutputKey(o.Prompt, model, c), Model: model, Text: text})
			}
		}
		if err != nil {
			return rep, err
		}
		if o.Progress != nil {
			o.Progress(i+1, len(todo))
		}
	}
	return rep, nil
}

// addSummary keeps a passage's summary and indexes its vector under the
// passage's id.
func (e *Engine) addSummary(ctx context.Context, c corpus.Chunk, text string) error {
	e.commitMu.Lock()
	defer e.commitMu.Unlock()
	ret := e.models.Load().ret // stays in force while commitMu is held
	sc := c
	sc.Text = text
	vecs, err := ret.Embed(ctx, []corpus.Chunk{sc}, nil)
	if err != nil {
		return err
	}
	if err := e.store.SetSummary(ctx, c.DocID, c.ID, text); err != nil {
		return err
	}
	if vecs == nil {
		return nil // no embedder: kept, indexed once one is installed (switchModels)
	}
	return ret.AddSummaries([]corpus.Chunk{sc}, vecs)
}

// indexSummaries embeds every kept summary with lm's models and indexes
// them (a switch of embedding models); the caller holds commitMu.
func (e *Engine) indexSummaries(ctx context.Context, lm loadedModels) error {
	sums, err := e.summaryChunks(ctx)
	if err != nil || len(sums) == 0 || !lm.ret.HasEmbedder() {
		return err
	}
	vecs, err := lm.ret.Embed(ctx, sums, nil)
	if err != nil {
		return err
	}
	return lm.ret.AddSummaries(sums, vecs)
}

// summaryChunks returns every passage holding a kept summary, its Text
// the summary (what retrieve.AddSummaries indexes).
func (e *Engine) summaryChunks(ctx context.Context) ([]corpus.Chunk, error) {
	kept, err := e.store.Summaries(ctx, "")
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(kept))
	for _, s := range kept {
		if s.Text != "" {
			ids = append(ids, s.ChunkID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	byID, err := e.store.Chunks(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]corpus.Chunk, 0, len(ids))
	for _, s := range kept {
		if c, ok := byID[s.ChunkID]; ok && s.Text != "" {
			c.Text = s.Text
			out = append(out, c)
		}
	}
	return out, nil
}

// Summaries returns the summaries kept of a document's passages (with the
// refusals of those not kept).
func (e *Engine) Summaries(ctx context.Context, docID string) ([]store.Summary, error) {
	return e.store.Summaries(ctx, docID)
}

// StageSummarizing is the stage of a summarising job (StartSummarize).
const StageSummarizing = "summarizing"

// StartSummarize summarises a document in the background, as a job like
// StartDescribe: progress gets "queued", then "summarizing" with the
// passages done out of the total, then done (with the document), failed
// or cancelled; Cancel stops it, keeping what was summarised.
func (e *Engine) StartSummarize(docID string, s Summarizer, o SummarizeOptions, progress func(Progress)) string {
	return e.startStage(docID, StageSummarizing, progress, func(ctx context.Context, count func(done, total int)) error {
		o := o
		o.Progress = count
		_, err := e.Summarize(ctx, docID, s, o)
		return err
	})
}

// SummaryKept reports whether a summary of passage c of document docID by
// o.Model and o.Prompt is kept (this session, the cache or a course
// file): a Summarize run would make no request for it.
func (e *Engine) SummaryKept(ctx context.Context, docID string, o SummarizeOptions, c corpus.Chunk) bool {
	k, ok := e.reused(ctx, docID, passageOutputKey(o.Prompt, o.Model, c))
	return ok && k.Kind == outputPassage && strings.TrimSpace(k.Text) != ""
}
