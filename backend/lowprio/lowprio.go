// Package lowprio runs background work (the passages of a document being
// added) at a lower CPU priority than the rest of the app, so that work a
// person waits for (reading and OCR in the PDF workers, a question's
// search) gets the cores first when both want them. With the cores idle,
// background work runs at full speed: a priority only orders the work
// that competes.
//
// The priority is a thread's (Linux's nice value is per thread, and so is
// Windows' thread priority): Go runs f on a goroutine locked to its own OS
// thread, lowers that thread's priority and lets the thread end with the
// goroutine (a locked goroutine that returns without unlocking takes its
// thread with it), because an unprivileged process can lower a thread's
// priority but not raise it back. Only what f computes on its own thread
// is lowered: a cgo call (ONNX Runtime with one intra-op thread runs on
// the calling thread) is, goroutines f starts are not.
package lowprio

import (
	"runtime"
	"sync/atomic"
	"time"
)

// Nice is the nice value of a background thread on Linux: a thread at
// nice 10 gets about a tenth of a core that a nice-0 thread also wants.
const Nice = 10

var (
	// lowered counts the threads whose priority was lowered (for tests).
	lowered atomic.Int64
	// spent sums the CPU time of the background threads that ended, in
	// nanoseconds.
	spent atomic.Int64
)

// CPU is the CPU time (user and system) the background threads of this
// process have used so far, counted as each ends, and whether it is
// measured (Linux only: a thread's own time, RUSAGE_THREAD).
func CPU() (time.Duration, bool) {
	return time.Duration(spent.Load()), threadCPUMeasured
}

// Go runs f on a new OS thread at the background priority and returns
// when f has returned. If the priority cannot be lowered (a system
// without thread priorities, or a refusal), f runs at the normal one:
// the order of work is a preference, never a reason to fail.
func Go(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		if lower() == nil {
			lowered.Add(1)
		}
		f()
		spent.Add(int64(threadCPU())) // the thread is new: all of its time is f's
	}()
	<-done
}
