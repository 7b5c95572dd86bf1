package engine

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"

	"vika/backend/corpus"
	"vika/backend/kept"
	"vika/backend/latex"
	"vika/backend/message"
)

// DescribedSuffix ends the id of a passage holding a region's description
// (corpus.DescribedSuffix).
const DescribedSuffix = corpus.DescribedSuffix

// DescribeOptions bound the describing of one document.
type DescribeOptions struct {
	// Max is the most regions described (figures first, then tables,
	// then formulas);
	// the others are counted in DescribeReport.OverCap. 0 means none.
	Max int
	// Tables adds a summary of each table (written from its text).
	Tables bool
	// Formulas adds the LaTeX of each display formula, transcribed from
	// its crop (made now: formulas have no crop from ingest).
	Formulas bool
	// Model names the describing model ("provider/id"). An answer of it
	// that is refused is recorded with this name on its region
	// (corpus.Refusal), and later runs with the same model skip that
	// region instead of paying for the same answer again; a run with
	// another model asks again, since that model may succeed.
	Model string
	// Prompt is the version of the describing prompts (the caller's:
	// the engine builds none). An output kept of a region by the same
	// model and prompt version (outputs.go) answers without a request.
	Prompt string
	// Progress, when set, is told each region done, out of the total.
	Progress func(done, total int)
}

// DescribeReport counts what Describe did.
type DescribeReport struct {
	Figures  int `json:"figures"`  // figures described now
	Tables   int `json:"tables"`   // tables summarised now
	Formulas int `json:"formulas"` // formulas transcribed into LaTeX now
	// Refused counts the answers refused now: transcriptions that were
	// not LaTeX (package latex), empty descriptions, answers the
	// provider's filter blocked. Their regions keep their text only, and
	// the refusal is recorded with them (corpus.Region.Refusal).
	Refused int `json:"refused"`
	// RefusedBefore counts the regions whose answer by this same model
	// was refused by an earlier run: not asked again.
	RefusedBefore int `json:"refused_before"`
	// Uncropped counts the formulas whose crop could not be rendered (a
	// worker crash or timeout on that page): skipped, the others go on.
	Uncropped int `json:"uncropped"`
	Already   int `json:"already"`  // regions described before, left as they are
	OverCap   int `json:"over_cap"` // regions left out by Max
	// Reused counts the regions (among Figures, Tables and Formulas)
	// whose output by the same model and prompt was kept (this session,
	// the cache or a course file): no request was made for them.
	Reused int `json:"reused"`
}

// Describer writes the description of a figure (from its crop), a short
// summary of a table (from its Markdown text) or the LaTeX of a formula
// (from its crop); lang is the language of its passage. An error wrapping
// ErrRefused (or latex.ErrRefused) is the model's answer refused, not a
// failure: it is recorded on the region and the run goes on; any other
// error stops the run.
type Describer func(ctx context.Context, r corpus.Region, lang string) (string, error)

// ErrRefused is a describing model's answer that cannot be kept (blocked
// by the provider's filter, say); wrap it with message.Wrap to give the
// reason its message.Refused* code.
var ErrRefused = errors.New("the model's answer was refused")

// Describe has the document's figures (those with a crop) described, its
// tables summarised when o.Tables and its formulas transcribed into LaTeX
// when o.Formulas, by d, up to o.Max regions. Each
// description is kept with its region (corpus.Region.Description) and
// indexed (BM25 and dense) as a passage of the region's kind, page and
// box, beside the region's own passage, so that search finds the figure
// by what it shows. What is done stays when ctx ends or d fails; the
// error then says why the rest was not done. A region described before
// is not described again, nor one whose answer by the same model
// (o.Model) was refused: a refused answer (ErrRefused, latex.ErrRefused,
// an empty description) is recorded on its region and the run goes on.
func (e *Engine) Describe(ctx context.Context, docID string, d Describer, o DescribeOptions) (DescribeReport, error) {
	var rep DescribeReport
	if e.isClosed() {
		return rep, ErrClosed
	}
	if err := e.checkRead(ctx, docID); err != nil {
		return rep, err
	}
	chunks, err := e.Chunks(ctx, docID)
	if err != nil {
		return rep, err
	}
	regions, err := e.store.Regions(ctx, docID, true)
	if err != nil {
		return rep, err
	}
	regionFor := func(c corpus.Chunk) (corpus.Region, bool) { return regionOf(c, regions) }
	// A region is described once, whatever the number of its passages (a
	// long table is split into several).
	type regionKey struct {
		page int
		kind corpus.ChunkKind
		box  [4]float64
	}
	keyOf := func(r corpus.Region) regionKey { return regionKey{r.Page, r.Kind, r.BBox} }
	byID := make(map[string]corpus.Chunk, len(chunks))
	for _, c := range chunks {
		byID[c.ID] = c
	}
	described := map[regionKey]bool{}
	for _, c := range chunks {
		if base, ok := strings.CutSuffix(c.ID, DescribedSuffix); ok {
			if r, ok := regionFor(byID[base]); ok {
				described[keyOf(r)] = true
			}
		}
	}
	type target struct {
		c corpus.Chunk
		r corpus.Region
	}
	var figures, tables, formulas []target
	seen := map[regionKey]bool{}
	for _, c := range chunks {
		if c.Described() {
			continue
		}
		r, ok := regionFor(c)
		if !ok || seen[keyOf(r)] {
			continue
		}
		seen[keyOf(r)] = true
		switch {
		case described[keyOf(r)]:
			rep.Already++
		case r.Refusal != nil && r.Refusal.Model == o.Model && wanted(r, o):
			rep.RefusedBefore++
		case !wanted(r, o):
		case r.Kind == corpus.ChunkFigure:
			figures = append(figures, target{c, r})
		case r.Kind == corpus.ChunkTable:
			tables = append(tables, target{c, r})
		default:
			formulas = append(formulas, target{c, r})
		}
	}
	todo := append(append(figures, tables...), formulas...)
	if len(todo) > o.Max {
		rep.OverCap = len(todo) - max(o.Max, 0)
		todo = todo[:max(o.Max, 0)]
	}
	crops := e.formulaCropper(docID)
	defer crops.close()
	for i, t := range todo {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		// The key of a formula is made without its crop, which is made
		// only when the model is to be asked.
		key := regionOutputKey(o.Prompt, o.Model, t.r, t.c.Lang)
		if reason, ok := e.keptRefusal(ctx, docID, key, outputRegion); ok {
			// The same model refused it in an earlier session: not asked again.
			rep.RefusedBefore++
			if err := e.store.SetRefusal(ctx, docID, t.r, corpus.Refusal{Model: o.Model, Reason: reason}); err != nil {
				return rep, err
			}
			if o.Progress != nil {
				o.Progress(i+1, len(todo))
			}
			continue
		}
		text, reused := e.reusedRegion(ctx, docID, key, t.r)
		var err error
		switch {
		case reused:
			rep.Reused++
		case t.r.Kind == corpus.ChunkFormula:
			img, cerr := crops.crop(ctx, t.r)
			if cerr != nil {
				if ctx.Err() != nil {
					return rep, ctx.Err()
				}
				rep.Uncropped++
				log.Printf("engine: the formula on page %d is skipped, its crop failed: %v", t.r.Page, cerr)
				continue
			}
			t.r.Image = img
			fallthrough
		default:
			text, err = d(ctx, t.r, t.c.Lang)
			text = strings.TrimSpace(text)
			switch {
			case err == nil && t.r.Kind == corpus.ChunkFormula:
				text, err = latex.Check(text)
			case err == nil && text == "":
				err = message.Wrap(fmt.Errorf("%w: the model wrote no description of the %s on page %d", ErrRefused, t.r.Kind, t.r.Page), message.RefusedEmpty)
			}
			if err == nil {
				e.keepOutput(ctx, docID, kept.Output{Kind: outputRegion, Key: key, Model: o.Model, Text: text})
			}
		}
		switch {
		case errors.Is(err, ErrRefused) || errors.Is(err, latex.ErrRefused):
			// The region keeps its text; the others go on.
			rep.Refused++
			log.Printf("engine: the %s on page %d: %s refused: %v", t.r.Kind, t.r.Page, o.Model, err)
			reason := message.Of(err)
			e.keepOutput(ctx, docID, kept.Output{Kind: outputRegion, Key: key, Model: o.Model, Refusal: &reason})
			err = e.store.SetRefusal(ctx, docID, t.r, corpus.Refusal{Model: o.Model, Reason: reason})
		case err != nil:
			return rep, err
		default:
			err = e.addDescription(ctx, t.c, t.r, text)
			switch t.r.Kind {
			case corpus.ChunkFigure:
				rep.Figures++
			case corpus.ChunkTable:
				rep.Tables++
			default:
				rep.Formulas++
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

// reusedRegion returns the output kept under key of region r, checked as
// a fresh answer is (a formula's LaTeX by latex.Check): one that fails
// is not used, and the model is asked.
func (e *Engine) reusedRegion(ctx context.Context, docID, key string, r corpus.Region) (string, bool) {
	o, ok := e.reused(ctx, docID, key)
	text := strings.TrimSpace(o.Text)
	if !ok || o.Kind != outputRegion || text == "" {
		return "", false
	}
	if r.Kind == corpus.ChunkFormula {
		t, err := latex.Check(text)
		return t, err == nil
	}
	return text, true
}

// wanted reports whether a run with o describes regions of r's kind.
func wanted(r corpus.Region, o DescribeOptions) bool {
	switch r.Kind {
	case corpus.ChunkFigure:
		return len(r.Image) > 0
	case corpus.ChunkTable:
		return o.Tables && strings.TrimSpace(r.Text) != ""
	case corpus.ChunkFormula:
		return o.Formulas
	}
	return false
}

// addDescription stores and indexes the passage of a region's description
// and keeps the description with the region.
func (e *Engine) addDescription(ctx context.Context, c corpus.Chunk, r corpus.Region, text string) error {
	e.commitMu.Lock()
	defer e.commitMu.Unlock()
	head := strings.TrimSpace(r.Caption)
	if head == "" {
		head = strings.ToUpper(string(r.Kind[:1])) + string(r.Kind[1:]) + fmt.Sprintf(" on page %d", r.Page)
	}
	body := text
	if r.Kind == corpus.ChunkFormula {
		body = formulaPassage(r, text)
	}
	dc := corpus.Chunk{ID: c.ID + DescribedSuffix, DocID: c.DocID, Page: c.Page, CharStart: c.CharStart, CharEnd: c.CharEnd,
		Text: head + "\n" + body, SectionTitle: c.SectionTitle, PageType: c.PageType, Lang: c.Lang, Kind: c.Kind, BBox: c.BBox}
	if dc.BBox == nil {
		box := r.BBox
		dc.BBox = &box
	}
	ret := e.models.Load().ret // stays in force while commitMu is held
	vecs, err := ret.Embed(ctx, []corpus.Chunk{dc}, nil)
	if err != nil {
		return err
	}
	if err := e.store.AddChunks(ctx, c.DocID, []corpus.Chunk{dc}); err != nil {
		return err
	}
	if err := ret.AddEmbedded(ctx, []corpus.Chunk{dc}, vecs); err != nil {
		return err
	}
	return e.store.SetDescription(ctx, c.DocID, r, text)
}

// StageDescribing is the stage of a describing job (StartDescribe).
const StageDescribing = "describing"

// StartDescribe describes a document in the background, as a job like an
// add: progress gets "queued", then "describing" with the regions done out
// of the total, then done (with the document), failed or cancelled; Cancel
// stops it, keeping what was described.
func (e *Engine) StartDescribe(docID string, d Describer, o DescribeOptions, progress func(Progress)) string {
	return e.startStage(docID, StageDescribing, progress, func(ctx context.Context, count func(done, total int)) error {
		o := o
		o.Progress = count
		_, err := e.Describe(ctx, docID, d, o)
		return err
	})
}

// startStage runs work on document docID in the background, as a job like
// an add: progress gets "queued", then stage with what work counts done
// out of its total, then done (with the document), failed or cancelled.
// It is the one shape of the jobs that go over a document already added
// (describing its regions, summarising its passages).
func (e *Engine) startStage(docID, stage string, progress func(Progress), work func(ctx context.Context, count func(done, total int)) error) string {
	name := docID
	if doc, err := e.store.DocumentByID(context.Background(), docID); err == nil {
		name = doc.Label
	}
	return e.start(name, progress, func(ctx context.Context, id string, p func(Progress)) (corpus.Document, error) {
		p(Progress{JobID: id, File: name, Stage: stage})
		count := func(done, total int) {
			p(Progress{JobID: id, File: name, Stage: stage, Done: done, Total: total})
		}
		if err := work(ctx, count); err != nil {
			return corpus.Document{}, err
		}
		return e.store.DocumentByID(ctx, docID)
	})
}
