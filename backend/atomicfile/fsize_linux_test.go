package atomicfile

import (
	"os/signal"
	"syscall"
	"testing"
)

// withFileSizeLimit runs fn with RLIMIT_FSIZE at limit bytes (a write past
// it fails with EFBIG once SIGXFSZ is ignored), then restores it.
func withFileSizeLimit(t *testing.T, limit uint64, fn func() error) error {
	t.Helper()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	signal.Ignore(syscall.SIGXFSZ)
	defer signal.Reset(syscall.SIGXFSZ)
	lim := old
	lim.Cur = limit
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old)
	return fn()
}
