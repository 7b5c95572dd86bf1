package rag

import (
	"context"
	"errors"

	"vika/backend/llm"
	"vika/backend/message"
)

// Errors callers can test with errors.Is.
var (
	ErrEmptyQuestion = errors.New("the question is empty")
	ErrInvalid       = errors.New("invalid settings")
	ErrUnknownAsk    = errors.New("no such answer")
)

// Readable is an answering error as a sentence for the command line and
// the log: the English of its message (package message), which the window
// translates instead.
func Readable(err error) string {
	if err == nil {
		return ""
	}
	return problem(err).English()
}

// askError is an answer that failed: its sentence for the user, and the
// cause for errors.Is.
type askError struct {
	msg   string
	cause error
}

func (e *askError) Error() string { return e.msg }
func (e *askError) Unwrap() error { return e.cause }

func failed(err error) error {
	if err == nil {
		return nil
	}
	return &message.Error{Msg: problem(err), Err: &askError{msg: Readable(err), cause: err}}
}

// Problem is an error of a model request as the message the window
// translates (every model tried failed, cancelled, ...): the answers'
// mapping, shared by the other jobs that ask models (study guides).
func Problem(err error) message.Message { return problem(err) }

// problem is an answering error as a code the window translates.
func problem(err error) message.Message {
	var ex *llm.ExhaustedError
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
	case errors.Is(err, llm.ErrModelNotFound):
		return message.New(message.ModelNotFound, "detail", err.Error())
	case errors.Is(err, llm.ErrNoModel):
		return message.New(message.NoModel)
	case errors.Is(err, ErrEmptyQuestion):
		return message.New(message.EmptyQuestion)
	}
	return message.Of(err)
}
