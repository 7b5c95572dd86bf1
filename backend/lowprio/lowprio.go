// Package lowprio runs background work (the passages of a document being
// added) at a lower CPU priority than the rest of the app, so that work a
// person waits for (reading and OCR in the PDF workers, a question's
// search) gets the cores first when both want them. With the cores idle,
// background work runs at full speed: a priority only orders the work
// that competes.
//
// The priority is a thread's (Linux's nice value is per thread, and so is
// Windows' thread priority). Go hands f to one of a pool of goroutines,
// each locked for good to an OS thread whose priority it lowered when it
// started. The threads are kept, never ended, for two reasons:
//   - an unprivileged process can lower a thread's priority but not raise
//     it back, so a lowered thread cannot go back to the Go scheduler;
//   - a thread that ends sends its parent-death signal to the children it
//     started: the PDF workers are started with Pdeathsig SIGKILL, and a
//     goroutine locked to a thread that had started one, then ending
//     locked, killed that worker mid-document.
//
// Only what f computes on its own thread is lowered: a cgo call (ONNX
// Runtime with one intra-op thread runs on the calling thread) is,
// goroutines f starts are not.
package lowprio

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Nice is the nice value of a background thread on Linux: a thread at
// nice 10 gets about a tenth of a core that a nice-0 thread also wants.
const Nice = 10

var (
	// spent sums the CPU time the background threads spent in f, in
	// nanoseconds.
	spent atomic.Int64

	mu   sync.Mutex
	idle []*thread // threads waiting for work; guarded by mu
)

// CPU is the CPU time (user and system) background work has used so far,
// and whether it is measured (Linux only: each thread's own time,
// RUSAGE_THREAD).
func CPU() (time.Duration, bool) {
	return time.Duration(spent.Load()), threadCPUMeasured
}

// Go runs f on a background thread and returns when f has returned; a
// panic in f is raised again in the caller. Calls at once run on threads
// of their own (the pool grows to the most calls ever made at once). If
// the priority cannot be lowered (a system without thread priorities, or
// a refusal), f runs at the normal one: the order of work is a preference,
// never a reason to fail.
func Go(f func()) {
	t := take()
	var panicked any
	done := make(chan struct{})
	t.work <- func() {
		before := threadCPU()
		defer close(done) // last: CPU counts f's time once Go returns
		defer func() { spent.Add(int64(threadCPU() - before)) }()
		defer func() { panicked = recover() }()
		f()
	}
	<-done
	give(t)
	if panicked != nil {
		panic(panicked)
	}
}

// thread is a goroutine locked to a lowered OS thread, running the
// functions sent to it one after the other.
type thread struct {
	work chan func()
}

// take returns an idle thread, or starts one.
func take() *thread {
	mu.Lock()
	if n := len(idle); n > 0 {
		t := idle[n-1]
		idle = idle[:n-1]
		mu.Unlock()
		return t
	}
	mu.Unlock()
	t := &thread{work: make(chan func())}
	go t.run()
	return t
}

// give puts t back in the pool.
func give(t *thread) {
	mu.Lock()
	idle = append(idle, t)
	mu.Unlock()
}

// run locks the goroutine to its thread for good, lowers the thread's
// priority and runs the work it is sent (it never returns: see the
// package comment).
func (t *thread) run() {
	runtime.LockOSThread() // never unlocked
	_ = lower()            // at the normal priority if refused: see Go
	for f := range t.work {
		f()
	}
}
