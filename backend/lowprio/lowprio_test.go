package lowprio

import (
	"runtime"
	"testing"
)

// TestGoLowersOnlyItsThread: f runs at the background priority and the
// caller's thread keeps its own.
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
	for range 3 {
		var inside int
		var insideErr error
		Go(func() { inside, insideErr = Current() })
		if insideErr != nil {
			t.Fatal(insideErr)
		}
		if inside != Background {
			t.Fatalf("inside Go the priority is %d, want %d (before: %d)", inside, Background, before)
		}
	}
	after, err := Current()
	if err != nil {
		t.Fatal(err)
	}
	if after != before {
		t.Fatalf("the caller's priority changed from %d to %d", before, after)
	}
}

// TestGoRaisesFsPanic: a panic in f reaches the caller, and the thread
// goes on serving later calls.
func TestGoRaisesFsPanic(t *testing.T) {
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Fatalf("recovered %v, want boom", r)
			}
		}()
		Go(func() { panic("boom") })
		t.Fatal("Go returned after a panic")
	}()
	ran := false
	Go(func() { ran = true })
	if !ran {
		t.Fatal("f did not run after a panic")
	}
}

// TestCPUCountsTheBackgroundWork: the CPU time f uses is added to CPU
// when f returns (on Linux, where it is measured).
func TestCPUCountsTheBackgroundWork(t *testing.T) {
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
