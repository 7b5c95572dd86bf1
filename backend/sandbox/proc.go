package sandbox

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// proc is one worker process, used by one caller at a time.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	enc    *gob.Encoder
	dec    *gob.Decoder
	exited chan struct{} // closed when the process has been waited for
	stderr *headBuffer   // the first lines it printed, for crash reports
	cpu    time.Duration // CPU time it reported last
	rss    int64         // resident bytes it reported last
	peak   *peakRSS      // the opener's record of the workers' peaks
}

// errOverBudget and errCrashed describe a worker that failed a call.
var (
	errOverBudget = errors.New("over budget")
	errCrashed    = errors.New("crashed")
)

// startProc starts a worker: this binary, re-executed with envWorker.
func startProc(cfg Config, faults bool) (*proc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot start the PDF reader: %w", err)
	}
	cmd := exec.Command(exe, "worker")
	cmd.Env = workerEnv(os.Environ(),
		envWorker+"="+protocolVersion,
		envMemory+"="+strconv.FormatInt(cfg.MemoryBytes, 10),
		envCPU+"="+strconv.Itoa(int(cfg.CPUTime/time.Second)),
		"MALLOC_ARENA_MAX=2", // glibc reserves 64 MB of address space per thread otherwise
	)
	if faults {
		cmd.Env = append(cmd.Env, envFaults+"=1")
	}
	supervise(cmd)
	p := &proc{cmd: cmd, exited: make(chan struct{}), stderr: &headBuffer{max: 2048}, peak: cfg.peak}
	cmd.Stderr = p.stderr
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start the PDF reader: %w", err)
	}
	go func() {
		cmd.Wait()
		// A worker that ended on its own reported its peak with each
		// answer (call). One killed or crashed may have grown after its
		// last answer: the kernel's figure stands in, which for a vfork'd
		// child also counts the app's resident set when it started (an
		// upper bound).
		if cfg.peak != nil && cmd.ProcessState != nil && !cmd.ProcessState.Success() {
			cfg.peak.record(maxRSS(cmd.ProcessState))
		}
		close(p.exited)
	}()
	p.enc, p.dec = gob.NewEncoder(p.stdin), gob.NewDecoder(stdout)
	return p, nil
}

// call sends req and waits for the response, at most budget (zero: no
// limit). Past the budget, or when ctx ends, it kills the worker; so does
// a broken pipe. The worker must not be used after an error other than
// the response's own.
func (p *proc) call(ctx context.Context, req request, budget time.Duration) (response, error) {
	type result struct {
		resp response
		err  error
	}
	p.stderr.reset() // a crash report quotes what this call printed
	ch := make(chan result, 1)
	go func() {
		var r result
		if r.err = p.enc.Encode(&req); r.err == nil {
			r.err = p.dec.Decode(&r.resp)
		}
		ch <- r
	}()
	var timeout <-chan time.Time
	if budget > 0 {
		t := time.NewTimer(budget)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case r := <-ch:
		if r.err != nil {
			reason := p.exitReason() // waits a moment for the exit status
			p.kill()
			return response{}, fmt.Errorf("%w (%s)", errCrashed, reason)
		}
		p.cpu, p.rss = r.resp.CPU, r.resp.RSS
		if p.peak != nil {
			p.peak.record(r.resp.Peak)
		}
		return r.resp, nil
	case <-timeout:
		p.kill()
		return response{}, errOverBudget
	case <-ctx.Done():
		p.kill()
		return response{}, ctx.Err()
	}
}

// kill ends the worker and waits (briefly) for it to be reaped.
func (p *proc) kill() {
	p.cmd.Process.Kill()
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(time.Second):
	}
}

// close ends an idle worker gently: it exits when its stdin closes.
func (p *proc) close() {
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(time.Second):
		p.kill()
	}
}

// exitReason describes how the worker ended: its exit status or signal and
// the first line of what it printed last (a Go panic, MuPDF's message).
func (p *proc) exitReason() string {
	select {
	case <-p.exited:
	case <-time.After(3 * time.Second):
	}
	reason := "the reader stopped answering"
	if st := p.cmd.ProcessState; st != nil {
		reason = st.String()
	}
	if line := p.stderr.firstLine(); line != "" {
		reason += ": " + line
	}
	return reason
}

// peakRSS records the largest peak resident set of the workers: as each
// reported it, and the kernel's figure for one that was killed.
type peakRSS struct {
	mu  sync.Mutex
	max int64
}

func (p *peakRSS) record(n int64) {
	p.mu.Lock()
	p.max = max(p.max, n)
	p.mu.Unlock()
}

// headBuffer keeps the first max bytes written to it (a Go panic or fatal
// error prints its message first, then the goroutines).
type headBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *headBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - len(t.buf); room > 0 {
		t.buf = append(t.buf, b[:min(room, len(b))]...)
	}
	return len(b), nil
}

func (t *headBuffer) reset() {
	t.mu.Lock()
	t.buf = t.buf[:0]
	t.mu.Unlock()
}

// firstLine is the first non-empty line kept that says something (a
// panic's message, not its goroutine dump).
func (t *headBuffer) firstLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, l := range bytes.Split(t.buf, []byte("\n")) {
		s := strings.TrimSpace(string(l))
		if s != "" && !strings.HasPrefix(s, "goroutine ") {
			if len(s) > 200 {
				s = s[:200]
			}
			return s
		}
	}
	return ""
}
