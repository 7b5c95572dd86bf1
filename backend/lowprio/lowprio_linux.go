package lowprio

import (
	"time"

	"golang.org/x/sys/unix"
)

// Background is the priority lower sets, as Current reports it.
const Background = Nice

// lower sets the calling thread's nice value to Nice (who is a thread id:
// on Linux PRIO_PROCESS with a tid names one thread).
func lower() error {
	return unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), Nice)
}

// Current is the calling thread's nice value.
func Current() (int, error) {
	// The raw system call returns 20 - nice (so that it is never negative).
	p, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid())
	return 20 - p, err
}

const threadCPUMeasured = true

// threadCPU is the calling thread's user and system time.
func threadCPU() time.Duration {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_THREAD, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
