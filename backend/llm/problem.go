package llm

import (
	"context"
	"errors"

	"vika/backend/message"
)

// Problem is an error of a model request as the message the window
// translates: every model tried failed (message.Exhausted, with each
// attempt), cancelled, timed out, a model not found, no model at all;
// any other error as message.Of gives it. The answers and the study jobs
// report their failures through it.
func Problem(err error) message.Message {
	var ex *ExhaustedError
	switch {
	case errors.As(err, &ex):
		as := make([]message.Attempt, 0, len(ex.Chain))
		for _, a := range ex.Chain {
			name := a.Name
			if name == "" {
				name = a.Model
			}
			as = append(as, message.Attempt{Model: name, Reason: a.ErrorKind})
		}
		return message.New(message.Exhausted, "attempts", as)
	case errors.Is(err, context.Canceled):
		return message.New(message.Cancelled)
	case errors.Is(err, context.DeadlineExceeded):
		return message.New(message.TimedOut)
	case errors.Is(err, ErrModelNotFound):
		return message.New(message.ModelNotFound, "detail", err.Error())
	case errors.Is(err, ErrNoModel):
		return message.New(message.NoModel)
	}
	return message.Of(err)
}
