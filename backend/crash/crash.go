// Package crash turns a panic in a background task (a study job, a
// course being opened) into that task's error, so that a bug reached by
// odd input ends the task with a coded failure and a logged stack, never
// the app: a panic in a goroutine nobody recovers ends the process.
//
// Call sites read:
//
//	func (j *Jobs) run(...) (ev Event, err error) {
//		defer crash.Recover("study job "+id, &err)
//		...
//	}
package crash

import (
	"errors"
	"fmt"
	"log"
	"runtime/debug"

	"vika/backend/message"
)

// ErrInternal is a task stopped by a panic (message.Internal).
var ErrInternal = message.Register(errors.New("internal error"), message.Internal)

// Recover, deferred directly (recover works only there), sets *err to
// ErrInternal with the panic's value when the function it is deferred in
// panicked, and logs the stack naming the task what; without a panic it
// does nothing. The function's other results are left as they were.
func Recover(what string, err *error) {
	if v := recover(); v != nil {
		log.Printf("vika: %s panicked: %v\n%s", what, v, debug.Stack())
		*err = fmt.Errorf("%w: %s stopped on a bug (%v)", ErrInternal, what, v)
	}
}
