package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"

	"vika/backend/config"
)

// envProgram makes a re-executed binary a launcher: it limits itself
// (envMemory, envCPU: absolute address-space and CPU-time limits) and
// executes the program its arguments name, which inherits the limits.
const envProgram = "VIKA_SANDBOX_PROGRAM"

// Program is an outside program run under the worker's kind of limits
// (LibreOffice converting an Office file).
type Program struct {
	// Argv is the program and its arguments; Dir its working directory;
	// Env its whole environment (nothing of the app's is inherited).
	Argv []string
	Dir  string
	Env  []string
	// Timeout bounds its wall time: past it, or when the context ends,
	// its whole process group is killed.
	Timeout time.Duration
	// MemoryBytes is its address-space limit, CPUTime its CPU-time limit
	// (zero: none; on Linux only).
	MemoryBytes int64
	CPUTime     time.Duration
	// NoNetwork runs it in a network namespace of its own, with only a
	// loopback that is down (Linux, where user namespaces are allowed;
	// elsewhere it runs with the network).
	NoNetwork bool
}

// ErrProgramTimeout: the program ran past its Timeout and was killed.
var ErrProgramTimeout = errors.New("ran past its time limit")

// Run runs the program and returns what it printed (its first 64 KB of
// standard output and error together). A program that exits non-zero,
// is killed by its limits or times out (ErrProgramTimeout) is an error.
func (p Program) Run(ctx context.Context) ([]byte, error) {
	if len(p.Argv) == 0 {
		return nil, errors.New("no program to run")
	}
	if p.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.Timeout)
		defer cancel()
	}
	cmd, err := p.command(ctx)
	if err != nil {
		return nil, err
	}
	out := &headBuffer{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start %s: %w", p.Argv[0], err)
	}
	err = cmd.Wait()
	printed := bytes.Clone(out.buf)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && p.Timeout > 0:
		return printed, fmt.Errorf("%w (%s)", ErrProgramTimeout, p.Timeout)
	case ctx.Err() != nil:
		return printed, ctx.Err()
	case err != nil:
		return printed, fmt.Errorf("%s: %w", p.Argv[0], err)
	}
	return printed, nil
}

// command is the launcher (this binary, re-executed with envProgram)
// running the program, in a process group of its own killed whole when
// ctx ends.
func (p Program) command(ctx context.Context) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, exe, p.Argv...)
	cmd.Dir = p.Dir
	cmd.Env = append(append([]string{}, p.Env...),
		envProgram+"="+protocolVersion,
		envMemory+"="+strconv.FormatInt(p.MemoryBytes, 10),
		envCPU+"="+strconv.Itoa(int(p.CPUTime/time.Second)))
	isolate(cmd, p.NoNetwork)
	return cmd, nil
}

// programMain is the launcher: it sets the limits and becomes the
// program (argv: os.Args[1:]), its environment without the launcher's
// variables.
func programMain() int {
	mem, _ := strconv.ParseInt(config.Getenv(envMemory), 10, 64)
	cpu, _ := strconv.Atoi(config.Getenv(envCPU))
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "vika launcher: no program")
		return 2
	}
	var env []string
	for _, kv := range os.Environ() {
		if !bytes.HasPrefix([]byte(kv), []byte("VIKA_SANDBOX_")) {
			env = append(env, kv)
		}
	}
	if err := execLimited(os.Args[1], os.Args[1:], env, mem, cpu); err != nil {
		fmt.Fprintln(os.Stderr, "vika launcher:", err)
		return 127
	}
	return 0
}
