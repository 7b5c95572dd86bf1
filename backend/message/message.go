// Package message names every message the student can see that comes from
// Go: a stable code and its parameters cross the bridge, the window
// translates them (frontend/src/lib/i18n), and English text for the
// command line comes from one function per code (English).
//
// Errors carry their code in one of two ways: a sentinel registered with
// Register (pdf.ErrNotPDF is "ingest.not_pdf"), or a wrap with parameters
// (Wrap(err, TooLarge, "size", "12 MB", "limit", "10 MB")). Of finds the
// code of any error.
package message

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
)

// Params are a message's parameters: strings, numbers, or lists of
// Attempt for the models an answer tried.
type Params map[string]any

// Message is what crosses the bridge: {code, params}.
type Message struct {
	Code   string `json:"code"`
	Params Params `json:"params,omitempty"`
}

// New returns the message code with params given as key, value pairs.
func New(code string, kv ...any) Message {
	m := Message{Code: code}
	if len(kv) > 0 {
		m.Params = make(Params, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			m.Params[fmt.Sprint(kv[i])] = kv[i+1]
		}
	}
	return m
}

// English is the message's text for the command line.
func (m Message) English() string {
	if f, ok := english[m.Code]; ok {
		return f(m.Params)
	}
	return english[Other](m.Params)
}

// Error is an error that carries its message. Its text stays the wrapped
// error's, which the command line prints.
type Error struct {
	Msg Message
	Err error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return e.Msg.English()
	}
	return e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Wrap gives err the message code with params as key, value pairs; nil
// stays nil.
func Wrap(err error, code string, kv ...any) error {
	if err == nil {
		return nil
	}
	return &Error{Msg: New(code, kv...), Err: err}
}

var (
	mu        sync.RWMutex
	sentinels []sentinel
)

type sentinel struct {
	err  error
	code string
}

// Register gives the sentinel err the code: Of returns it for every error
// that wraps err and carries no more specific code. A sentinel that wraps
// another must be registered first. It returns err, to register where the
// sentinel is declared.
func Register(err error, code string) error {
	mu.Lock()
	defer mu.Unlock()
	sentinels = append(sentinels, sentinel{err, code})
	return err
}

// Of returns the message of err: the outermost wrap's, else the first
// registered sentinel it wraps, else a cancellation or time-out, else
// Other with the error's text as "detail".
func Of(err error) Message {
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	mu.RLock()
	defer mu.RUnlock()
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			return Message{Code: s.code}
		}
	}
	switch {
	case errors.Is(err, context.Canceled):
		return Message{Code: Cancelled}
	case errors.Is(err, context.DeadlineExceeded):
		return Message{Code: TimedOut}
	case err == nil:
		return Message{}
	}
	return New(Other, "detail", err.Error())
}

// Codes lists every code, sorted: the window must have a text for each in
// every language (message_test.go writes them to the frontend).
func Codes() []string {
	out := make([]string, 0, len(english))
	for c := range english {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}
