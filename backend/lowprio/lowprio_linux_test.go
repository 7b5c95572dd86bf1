package lowprio

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// TestBackgroundThreadsStay: the threads Go runs f on are still alive
// after it returns, and calls at once each get one. (When a background
// thread ended with its goroutine, the PDF workers it had started got
// their parent-death signal, SIGKILL, mid-document: a session test saw
// "it crashed the PDF reader (crashed (signal: killed))".)
func TestBackgroundThreadsStay(t *testing.T) {
	const calls = 4
	tids := make([]int, calls)
	var wg sync.WaitGroup
	start := make(chan struct{})
	var ready sync.WaitGroup
	ready.Add(calls)
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Go(func() {
				tids[i] = unix.Gettid()
				ready.Done()
				<-start // every call holds its thread until all have one
			})
		}()
	}
	ready.Wait()
	close(start)
	wg.Wait()
	seen := map[int]bool{}
	for _, tid := range tids {
		if seen[tid] {
			t.Fatalf("two calls at once ran on thread %d", tid)
		}
		seen[tid] = true
		if _, err := os.Stat(fmt.Sprintf("/proc/self/task/%d", tid)); err != nil {
			t.Fatalf("background thread %d ended after its call: %v", tid, err)
		}
	}
}
