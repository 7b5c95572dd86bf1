package rag

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/llm"
	"vika/backend/message"
	"vika/backend/prompt"
)

// Summarizer returns the engine.Summarizer that has a text model write a
// short summary of a passage (prompt.SummaryRequest), through the router
// and its fallback as auxiliary requests are (llm.Service.AskJob: the
// lightest, cheapest models first, rate limits waited out with the
// describe jobs' retries). An answer the provider's filter blocked, or
// one cut before any text, is refused (recorded with the passage); a
// failure of every model stops the job with describe.failed's kind.
func (s *Assistant) Summarizer(ctx context.Context) (engine.Summarizer, string, error) {
	if s.llm == nil {
		return nil, "", fmt.Errorf("%w: no model service is configured", llm.ErrNoModel)
	}
	first, ok := s.llm.FirstJobModel(ctx)
	if !ok {
		return nil, "", message.Wrap(fmt.Errorf("%w: no model is available to summarise passages", llm.ErrNoModel), message.SummaryNoModel)
	}
	return func(ctx context.Context, c corpus.Chunk) (string, string, error) {
		var b strings.Builder
		res, err := s.llm.AskJob(ctx, prompt.SummaryRequest(c), llm.Sink{Delta: func(d llm.Delta) error {
			if !d.Footer {
				b.WriteString(d.Text)
			}
			return nil
		}})
		model := res.ModelUsed
		switch {
		case errors.Is(err, llm.ErrBlocked):
			return "", model, message.Wrap(fmt.Errorf("%w: %w", engine.ErrRefused, err), message.RefusedBlocked)
		case err != nil && ctx.Err() == nil:
			return "", model, message.Wrap(err, message.SummaryFailed, "reason", failureKind(err))
		case err != nil:
			return "", model, err
		}
		text := strings.TrimSpace(b.String())
		if res.Truncated && text == "" {
			return "", model, message.Wrap(fmt.Errorf("%w: the answer was cut at the model's token limit before any text", engine.ErrRefused), message.RefusedTruncated)
		}
		if res.Truncated {
			text += " […]"
		}
		return text, model, nil
	}, first.Key(), nil
}
