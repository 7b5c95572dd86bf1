//go:build !linux

package sandbox

import (
	"errors"
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

// isolate: elsewhere a program runs as a plain child, killed (alone) when
// its context ends; Windows would put it in a Job Object.
func isolate(cmd *exec.Cmd, noNetwork bool) {}

// NetworkIsolated: programs run with the network on other systems.
func NetworkIsolated() bool { return false }

// execLimited: a system without exec runs the program as a child and
// passes its exit status on.
func execLimited(path string, argv, env []string, memBytes int64, cpuSeconds int) error {
	cmd := exec.Command(path, argv[1:]...)
	cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = env, os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			os.Exit(ee.ExitCode())
		}
		return err
	}
	return nil
}
