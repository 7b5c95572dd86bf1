package ocr

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD (the syscall package lacks it).
const rusageThread = 1

// threadCPU returns the CPU time (user + system) of the calling OS thread.
// A worker's Tesseract runs on its own locked thread with one OpenMP
// thread, so the difference around a recognition is that recognition's
// CPU time, whatever else the machine runs.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
