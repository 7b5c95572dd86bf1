//go:build linux

package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// protocolOutput moves the protocol to a private copy of stdout and points
// descriptor 1 at stderr, so that whatever MuPDF, Leptonica or Tesseract
// print cannot corrupt the response stream.
func protocolOutput() (*os.File, error) {
	fd, err := syscall.Dup(1)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(fd)
	if err := syscall.Dup3(2, 1, 0); err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), "protocol"), nil
}

// limitSelf caps the address space the process may add to what it has
// mapped at start (bytes: an idle worker already maps about 1.8 GB, mostly
// reservations of the Go runtime and the C allocator, of which some 30 MB
// are resident) and its CPU time (seconds); zero leaves a limit as it is.
// Past the CPU limit the kernel sends SIGXCPU (ignored by Go) and then,
// one second later, SIGKILL.
func limitSelf(memBytes int64, cpuSeconds int) error {
	if memBytes > 0 {
		base, err := vmSize()
		if err != nil {
			return err
		}
		lim := uint64(base + memBytes)
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
			return err
		}
	}
	if cpuSeconds > 0 {
		if err := syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: uint64(cpuSeconds), Max: uint64(cpuSeconds) + 1}); err != nil {
			return err
		}
	}
	return nil
}

// vmSize is the address space the process maps now, in bytes.
func vmSize() (int64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmSize:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmSize in /proc/self/status")
}

// cpuTime is the CPU time the process has used (user + system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakBytes is this process's peak resident memory (VmHWM), 0 if unknown.
func peakBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			f := strings.Fields(v) // "123456 kB"
			if len(f) == 2 && f[1] == "kB" {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return kb << 10
				}
			}
		}
	}
	return 0
}

// residentBytes is this process's resident memory (VmRSS), 0 if unknown.
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

// supervise makes the kernel kill the worker if its supervisor dies. The
// signal comes when the thread that started the worker ends, so the app
// never ends a thread (runtime.LockOSThread without Unlock in a goroutine
// that returns would; see backend/lowprio).
func supervise(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// maxRSS is the peak resident set of an ended process, in bytes.
func maxRSS(st *os.ProcessState) int64 {
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10 // kilobytes on Linux
	}
	return 0
}

// isolate puts a program's launcher in a process group of its own,
// killed whole when its context ends, and, with noNetwork, in new user
// and network namespaces (no interface but a loopback that is down);
// the kernel kills the launcher's process (the program, once executed)
// if the app dies; the program's own children inherit its limits, not
// that signal.
func isolate(cmd *exec.Cmd, noNetwork bool) {
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if noNetwork && userNamespaces() {
		uid, gid := os.Getuid(), os.Getgid()
		attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	}
	cmd.SysProcAttr = attr
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// userNamespaces reports whether this process may make a user namespace
// (some systems forbid unprivileged ones): a probe child is started once.
var userNamespaces = sync.OnceValue(func() bool {
	cmd := exec.Command("/bin/true")
	uid, gid := os.Getuid(), os.Getgid()
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}}
	return cmd.Run() == nil
})

// NetworkIsolated reports whether programs asked to run without the
// network do (Program.NoNetwork).
func NetworkIsolated() bool { return userNamespaces() }

// execLimited sets absolute address-space and CPU-time limits (zero:
// none) and replaces this process with the program.
func execLimited(path string, argv, env []string, memBytes int64, cpuSeconds int) error {
	if memBytes > 0 {
		lim := uint64(memBytes)
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
			return err
		}
	}
	if cpuSeconds > 0 {
		if err := syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: uint64(cpuSeconds), Max: uint64(cpuSeconds) + 1}); err != nil {
			return err
		}
	}
	if full, err := exec.LookPath(path); err == nil {
		path = full
	}
	return syscall.Exec(path, argv, env)
}
