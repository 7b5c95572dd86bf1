package lowprio

import (
	"runtime"
	"testing"
)

// TestGoLowersOnlyItsThread: f runs at the background priority, the
// caller's thread keeps its own, and each call lowers a thread of its own
// (the thread lowered for one call is not reused by the rest of the
// program: it ends with the call).
func TestGoLowersOnlyItsThread(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "windows" {
		t.Skip("thread priorities are set on Linux and Windows only")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before, err := Current()
	if err != nil {
		t.Fatal(err)
	}
	want := Background
	start := lowered.Load()
	for range 3 {
		var inside int
		var insideErr error
		Go(func() { inside, insideErr = Current() })
		if insideErr != nil {
			t.Fatal(insideErr)
		}
		if inside != want {
			t.Fatalf("inside Go the priority is %d, want %d (before: %d)", inside, want, before)
		}
	}
	if got := lowered.Load() - start; got != 3 {
		t.Fatalf("%d threads lowered for 3 calls, want 3", got)
	}
	after, err := Current()
	if err != nil {
		t.Fatal(err)
	}
	if after != before {
		t.Fatalf("the caller's priority changed from %d to %d", before, after)
	}
}

// TestGoRunsF: Go returns only after f has run.
func TestGoRunsF(t *testing.T) {
	ran := false
	Go(func() { ran = true })
	if !ran {
		t.Fatal("f did not run")
	}
}

// TestCPUCountsTheBackgroundThreads: the CPU time of f's thread is added
// to CPU when f returns (on Linux, where it is measured).
func TestCPUCountsTheBackgroundThreads(t *testing.T) {
	before, measured := CPU()
	if !measured {
		t.Skip("the background threads' CPU time is measured on Linux only")
	}
	x := 1.0
	Go(func() {
		for i := range 20_000_000 {
			x = x*1.0000001 + float64(i&1)
		}
	})
	after, _ := CPU()
	if after <= before {
		t.Fatalf("CPU went from %v to %v after a busy background call (%v)", before, after, x)
	}
	t.Logf("the busy call used %v of CPU", after-before)
}
