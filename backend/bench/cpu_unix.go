//go:build unix

package bench

import "syscall"

// CPUTime returns the user and system CPU seconds of this process and of
// its children that have ended and been waited for (getrusage SELF plus
// CHILDREN), and the peak RSS of the largest such child in bytes
// (Linux's ru_maxrss is in KiB; see peakRSS for why it may hold this
// process's own peak).
func CPUTime() (user, sys float64, childPeak int64, ok bool) {
	var self, kids syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids) != nil {
		return 0, 0, 0, false
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(self.Utime) + tv(kids.Utime), tv(self.Stime) + tv(kids.Stime), int64(kids.Maxrss) * 1024, true
}

// ChildCPU returns the user and system CPU seconds of this process's
// children that have ended and been waited for (the PDF workers, once the
// engine is closed).
func ChildCPU() (float64, bool) {
	var kids syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids) != nil {
		return 0, false
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(kids.Utime) + tv(kids.Stime), true
}
