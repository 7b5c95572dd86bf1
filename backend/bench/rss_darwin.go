package bench

import (
	"os"
	"syscall"
)

// peakRSS returns the peak resident set size of an exited child, in
// bytes (macOS reports ru_maxrss in bytes).
func peakRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0, false
	}
	return ru.Maxrss, true
}

// SelfPeakRSS returns the peak resident set size of this process so far,
// in bytes.
func SelfPeakRSS() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Maxrss, true
}
