package llm

import (
	"context"
	"errors"
	"sync"
	"time"
)

var (
	errFirstTokenTimeout = errors.New("no answer before the first-token timeout")
	errIdleTimeout       = errors.New("the answer stalled")
)

// StreamTimed streams from p like p.Stream, and cancels the stream when no
// text arrives within firstToken of the start, or when no text arrives for
// idle once the answer streams. Deltas without text (reasoning tokens,
// keep-alive chunks) are not passed to fn and reset neither timer: a
// provider that sends only those cannot keep an answer alive. A
// first-token timeout is reported as a *ProviderError of kind ErrTimeout,
// a silence as ErrStream.
func StreamTimed(ctx context.Context, p Provider, req Request, firstToken, idle time.Duration, fn func(Delta) error) (Usage, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	var mu sync.Mutex
	started := false // guarded by mu
	timer := time.AfterFunc(firstToken, func() {
		mu.Lock()
		defer mu.Unlock()
		if started {
			cancel(errIdleTimeout)
		} else {
			cancel(errFirstTokenTimeout)
		}
	})
	defer timer.Stop()

	usage, err := p.Stream(ctx, req, func(d Delta) error {
		if d.Text == "" {
			return nil
		}
		mu.Lock()
		started = true
		mu.Unlock()
		timer.Reset(idle)
		return fn(d)
	})
	timer.Stop()
	if err == nil {
		return usage, nil
	}
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errFirstTokenTimeout):
		return usage, &ProviderError{Provider: p.Name(), Model: req.Model, Kind: ErrTimeout,
			Message: "no text within " + firstToken.String(), cause: cause}
	case errors.Is(cause, errIdleTimeout):
		return usage, &ProviderError{Provider: p.Name(), Model: req.Model, Kind: ErrStream,
			Message: "the answer stalled for " + idle.String(), cause: cause}
	}
	return usage, err
}
