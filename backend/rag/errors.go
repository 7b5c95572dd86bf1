package rag

import (
	"context"
	"errors"
	"strings"

	"vika/backend/engine"
	"vika/backend/llm"
	"vika/backend/message"
)

// Errors callers can test with errors.Is.
var (
	ErrEmptyQuestion = errors.New("the question is empty")
	ErrInvalid       = errors.New("invalid settings")
	ErrUnknownAsk    = errors.New("no such answer")
)

// kindPhrases say how a model failed, by llm.KindOf its error.
var kindPhrases = map[string]string{
	"rate_limited":    "was rate limited",
	"quota":           "has used up its quota",
	"unavailable":     "was unavailable",
	"auth":            "rejected the API key",
	"timeout":         "did not answer in time",
	"stream":          "broke off",
	"bad_response":    "sent a malformed answer",
	"model_not_found": "does not exist at the provider",
	"bad_request":     "rejected the request",
	"blocked":         "blocked the request (content filter)",
	"no_key":          "has no API key",
}

// Readable turns an answering error into a sentence to show the user. The
// errors of package llm are already free of keys and provider noise; this
// adds what happened to each model tried and what to do.
func Readable(err error) string {
	var ex *llm.ExhaustedError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &ex):
		var parts []string
		for _, a := range ex.Chain {
			phrase := kindPhrases[a.ErrorKind]
			if phrase == "" {
				phrase = "failed"
			}
			name := a.Name
			if name == "" {
				name = a.Model
			}
			parts = append(parts, name+" "+phrase)
		}
		return "No model could answer: " + strings.Join(parts, "; ") +
			". Try again in a minute, pick another model, or add another provider's API key in Settings."
	case errors.Is(err, context.Canceled):
		return "The answer was stopped."
	case errors.Is(err, context.DeadlineExceeded):
		return "The answer took too long and was stopped."
	case errors.Is(err, engine.ErrClosed):
		return "The session is closed: restart Vika to ask again."
	case errors.Is(err, llm.ErrModelNotFound), errors.Is(err, llm.ErrNoModel), errors.Is(err, ErrEmptyQuestion):
		return sentence(err.Error())
	}
	return sentence("The answer failed: " + err.Error())
}

// sentence capitalises s and ends it with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
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
