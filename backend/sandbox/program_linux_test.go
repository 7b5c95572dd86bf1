package sandbox

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestProgramLimits: a program run through the launcher has the address
// space and CPU limits asked for, no network interface but a loopback
// where user namespaces are allowed, and dies with its process group at
// its time limit.
func TestProgramLimits(t *testing.T) {
	ctx := context.Background()
	out, err := Program{Argv: []string{"/bin/sh", "-c", "ulimit -v; ulimit -t; tail -n +3 /proc/self/net/dev | cut -d: -f1"}, Env: []string{"PATH=/usr/bin:/bin"},
		MemoryBytes: 1 << 30, CPUTime: 7 * time.Second, NoNetwork: true, Timeout: 10 * time.Second}.Run(ctx)
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	lines := strings.Fields(string(out))
	if len(lines) < 3 || lines[0] != "1048576" || lines[1] != "7" {
		t.Errorf("limits seen by the program: %q, want 1048576 KiB and 7 s", out)
	}
	if NetworkIsolated() {
		if got := strings.Join(lines[2:], " "); got != "lo" {
			t.Errorf("network interfaces seen by the program: %q, want lo alone", got)
		}
	} else {
		t.Log("user namespaces are not allowed here: the program ran with the network")
	}

	start := time.Now()
	_, err = Program{Argv: []string{"/bin/sh", "-c", "sleep 30 & sleep 30; wait"}, Env: []string{"PATH=/usr/bin:/bin"}, Timeout: 300 * time.Millisecond}.Run(ctx)
	if !errors.Is(err, ErrProgramTimeout) {
		t.Errorf("a program past its time: %v", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("the kill took %v: the group's children held the pipes", took)
	}
}
