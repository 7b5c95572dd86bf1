package rag

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/latex"
	"vika/backend/llm"
	"vika/backend/message"
	"vika/backend/prompt"
)

// ErrNotVision is a describing model that reads no images.
var ErrNotVision = errors.New("this model reads no images")

// Describer returns the engine.Describer that has model ("provider/id", a
// vision model) describe figures from their crops, summarise tables from
// their text and transcribe formulas into LaTeX from their crops (the
// engine checks the LaTeX; a transcription cut short is refused here, and
// so is an answer the provider's content filter blocked, whatever the
// region). Only that model is asked, never a fallback: figure
// images and table text go to the provider the student chose and to no
// other.
func (s *Assistant) Describer(ctx context.Context, model string) (engine.Describer, error) {
	if s.llm == nil {
		return nil, fmt.Errorf("%w: no model service is configured", llm.ErrNoModel)
	}
	m, ok := s.llm.Model(ctx, model)
	switch {
	case !ok:
		return nil, fmt.Errorf("%w: %q is not in the catalogue nor pulled into Ollama", llm.ErrModelNotFound, model)
	case !m.Vision:
		return nil, message.Wrap(fmt.Errorf("%w: %s cannot describe figures; pick a vision model", ErrNotVision, m.Name), message.DescribeNotVision, "model", m.Name)
	}
	return func(ctx context.Context, r corpus.Region, lang string) (string, error) {
		var req llm.Request
		switch r.Kind {
		case corpus.ChunkFigure:
			req = prompt.FigureRequest(r, lang)
		case corpus.ChunkFormula:
			req = prompt.FormulaRequest(r)
		default:
			req = prompt.TableRequest(r, lang)
		}
		var b strings.Builder
		res, err := s.llm.AskWith(ctx, model, req, llm.Sink{Delta: func(d llm.Delta) error {
			if !d.Footer {
				b.WriteString(d.Text)
			}
			return nil
		}})
		if errors.Is(err, llm.ErrBlocked) {
			// The same model would block the same region again: a refusal,
			// recorded so that it is not asked again.
			return "", message.Wrap(fmt.Errorf("%w: %w", engine.ErrRefused, err), message.RefusedBlocked)
		}
		if err != nil && ctx.Err() == nil {
			// The job stops here: the window says which model failed and how.
			return "", message.Wrap(err, message.DescribeFailed, "model", m.Name, "reason", failureKind(err))
		}
		if err != nil {
			return "", err
		}
		if res.Truncated && r.Kind == corpus.ChunkFormula {
			return "", message.Wrap(fmt.Errorf("%w: the answer was cut at the model's token limit", latex.ErrRefused), message.RefusedTruncated)
		}
		if res.Truncated && strings.TrimSpace(b.String()) == "" {
			// Cut before any text (a model that reasons first spent its
			// budget): refused as cut, not as empty.
			return "", message.Wrap(fmt.Errorf("%w: the answer was cut at the model's token limit before any text", engine.ErrRefused), message.RefusedTruncated)
		}
		if t := strings.TrimSpace(b.String()); res.Truncated && t != "" {
			return t + " […]", nil
		}
		return b.String(), nil
	}, nil
}

// DescribeModel returns the model a describe run started with model
// uses: a Gemini model is probed first and, when it refuses, the next
// Gemini vision model is (llm.Service.ProbeVision); any other is model.
func (s *Assistant) DescribeModel(ctx context.Context, model string) (string, error) {
	if s.llm == nil {
		return model, nil
	}
	return s.llm.ProbeVision(ctx, model)
}

// failureKind is how the describing model failed (llm.KindOf): the kind
// of its attempt when the call gave up on it, as it tries that model only,
// or why it could not be asked at all (llm.UnavailableError).
func failureKind(err error) string {
	var un *llm.UnavailableError
	if errors.As(err, &un) && un.Why != "" {
		return un.Why // marked down by an earlier failure: that failure's kind
	}
	var ex *llm.ExhaustedError
	if errors.As(err, &ex) && ex.Last != nil {
		return llm.KindOf(ex.Last)
	}
	return llm.KindOf(err)
}
