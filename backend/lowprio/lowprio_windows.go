package lowprio

import (
	"fmt"
	"time"

	"golang.org/x/sys/windows"
)

// threadPriorityLowest is THREAD_PRIORITY_LOWEST: two steps below normal.
const threadPriorityLowest = -2

// Background is the priority lower sets, as Current reports it.
const Background = threadPriorityLowest

var (
	kernel32          = windows.NewLazySystemDLL("kernel32.dll")
	setThreadPriority = kernel32.NewProc("SetThreadPriority")
	getThreadPriority = kernel32.NewProc("GetThreadPriority")
)

// lower sets the calling thread's priority to THREAD_PRIORITY_LOWEST.
func lower() error {
	if r, _, err := setThreadPriority.Call(uintptr(windows.CurrentThread()), priorityArg(threadPriorityLowest)); r == 0 {
		return fmt.Errorf("SetThreadPriority: %w", err)
	}
	return nil
}

// Current is the calling thread's priority (THREAD_PRIORITY_*).
func Current() (int, error) {
	r, _, err := getThreadPriority.Call(uintptr(windows.CurrentThread()))
	if int32(r) == 0x7fffffff { // THREAD_PRIORITY_ERROR_RETURN
		return 0, fmt.Errorf("GetThreadPriority: %w", err)
	}
	return int(int32(r)), nil
}

// priorityArg passes a (possibly negative) int as the system call's int
// argument, sign-extended as the ABI wants.
func priorityArg(p int) uintptr { return uintptr(int64(p)) }

const threadCPUMeasured = false

// threadCPU is not measured on this system.
func threadCPU() time.Duration { return 0 }
