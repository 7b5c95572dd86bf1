//go:build !linux

package sandbox

import (
	"os"
	"os/exec"
	"time"
)

// On other systems the worker runs without kernel limits: the supervisor's
// wall-clock budgets and kill still apply. Windows would put the worker in
// a Job Object (JOBOBJECT_EXTENDED_LIMIT_INFORMATION: process memory and
// CPU time limits, kill on job close) here; macOS has setrlimit as Linux.

func protocolOutput() (*os.File, error) { return os.Stdout, nil }

func limitSelf(memBytes int64, cpuSeconds int) error { return nil }

func cpuTime() time.Duration { return 0 }

func residentBytes() int64 { return 0 }

func peakBytes() int64 { return 0 }

func supervise(cmd *exec.Cmd) {}

func maxRSS(st *os.ProcessState) int64 { return 0 }
