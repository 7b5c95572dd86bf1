// Package jobs runs background tasks by id: the bookkeeping every long
// operation of a session shares (document adds, answers, study jobs,
// model downloads). A Runner starts a task in its own goroutine with a
// context that Cancel(id) or Close cancels, checks a caller-chosen id,
// refuses an id already running, contains a panic in the task (a bug
// reached by odd input ends that task with crash.ErrInternal and a logged
// stack, never the app), and lets Close wait for every task to end.
//
// Call sites read:
//
//	_, err := r.Start(ctx, r.NewID(), func(ctx context.Context) error { ... }, func(ctx context.Context, err error) { ... })
package jobs

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"sync"

	"vika/backend/crash"
	"vika/backend/message"
)

// Errors of Start.
var (
	// ErrClosed is a task started after Close (message.SessionClosed).
	ErrClosed = message.Register(errors.New("the session is closed"), message.SessionClosed)
	// ErrBadID is a caller-chosen id that is malformed or already running
	// (message.BadID).
	ErrBadID = message.Register(errors.New("invalid job id"), message.BadID)
)

var validID = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// ValidID reports whether id may name a task: 1 to 64 letters, digits,
// ".", "-" or "_" (the window picks the ids of answers and study jobs, to
// subscribe to their events before they start; a model's name is the id
// of its download).
func ValidID(id string) bool { return validID.MatchString(id) }

// Runner runs tasks by id. The zero value is ready.
type Runner struct {
	// Prefix starts the ids NewID picks ("job-": job-1, job-2, ...).
	Prefix string

	wg      sync.WaitGroup // the tasks running, for Close to wait for
	mu      sync.Mutex
	closed  bool                          // guarded by mu
	running map[string]context.CancelFunc // guarded by mu
	next    int                           // guarded by mu: the last number NewID gave
}

// NewID returns an id no task of r had: Prefix and the next number.
func (r *Runner) NewID() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	return r.Prefix + strconv.Itoa(r.next)
}

// Start runs task in its own goroutine under id (NewID's, or the
// caller's). task's context derives from ctx and is cancelled by
// Cancel(id), CancelAll or Close. A panic in task becomes its error
// (crash.ErrInternal, the stack logged). end, when not nil, then receives
// task's context and error, after the task left the running set
// (Cancel(id) is false from then on) and before Close returns; a panic in
// end is logged and contained too. Start fails with ErrBadID for an id
// malformed or running, and ErrClosed after Close.
func (r *Runner) Start(ctx context.Context, id string, task func(context.Context) error, end func(context.Context, error)) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return id, ErrClosed
	}
	if !ValidID(id) {
		return id, fmt.Errorf("%w: %q (want 1 to 64 letters, digits, ., - or _)", ErrBadID, id)
	}
	if _, busy := r.running[id]; busy {
		return id, fmt.Errorf("%w: %q is already running", ErrBadID, id)
	}
	ctx, cancel := context.WithCancel(ctx)
	if r.running == nil {
		r.running = map[string]context.CancelFunc{}
	}
	r.running[id] = cancel
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		err := run(id, ctx, task)
		r.mu.Lock()
		delete(r.running, id)
		r.mu.Unlock()
		if end != nil {
			_ = run(id+" (its end)", ctx, func(ctx context.Context) error { end(ctx, err); return nil })
		}
		cancel()
	}()
	return id, nil
}

// run calls task, its panic made its error.
func run(what string, ctx context.Context, task func(context.Context) error) (err error) {
	defer crash.Recover(what, &err)
	return task(ctx)
}

// Cancel cancels the task id; it reports whether it was running.
func (r *Runner) Cancel(id string) bool {
	r.mu.Lock()
	cancel, ok := r.running[id]
	r.mu.Unlock()
	if ok {
		cancel()
	}
	return ok
}

// CancelAll cancels every task running; later ones start as usual.
func (r *Runner) CancelAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, cancel := range r.running {
		cancel()
	}
}

// Running reports whether task id is running.
func (r *Runner) Running(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.running[id]
	return ok
}

// Close cancels the tasks running and waits for them (and their end) to
// return; a task started afterwards fails with ErrClosed.
func (r *Runner) Close() {
	r.mu.Lock()
	r.closed = true
	for _, cancel := range r.running {
		cancel()
	}
	r.mu.Unlock()
	r.wg.Wait()
}
