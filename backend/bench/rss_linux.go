package bench

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// peakRSS returns the peak resident set size of an exited child, in
// bytes (Linux reports ru_maxrss in KiB). Beware: on Linux this includes
// the peak RSS of the parent that started the child, because execve
// keeps the high-water mark of the memory it replaces (Go starts
// children with vfork, sharing the parent's memory until the exec).
func peakRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0, false
	}
	return ru.Maxrss * 1024, true
}

// SelfPeakRSS returns the peak resident set size of this process so far,
// in bytes: VmHWM of /proc/self/status, the high-water mark of this
// program's own memory (unlike getrusage's ru_maxrss, which may hold the
// parent's peak; see peakRSS).
func SelfPeakRSS() (int64, bool) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		v, ok := strings.CutPrefix(sc.Text(), "VmHWM:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		if err != nil {
			return 0, false
		}
		return kb * 1024, true
	}
	return 0, false
}
