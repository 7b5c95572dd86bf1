package rag

import (
	"errors"

	"vika/backend/llm"
	"vika/backend/message"
)

// Errors callers can test with errors.Is.
var (
	ErrEmptyQuestion = message.Register(errors.New("the question is empty"), message.EmptyQuestion)
	ErrUnknownAsk    = errors.New("no such answer")
)

// Readable is an answering error as a sentence for the command line and
// the log: the English of its message (package message), which the window
// translates instead.
func Readable(err error) string {
	if err == nil {
		return ""
	}
	return llm.Problem(err).English()
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
	return &message.Error{Msg: llm.Problem(err), Err: &askError{msg: Readable(err), cause: err}}
}
