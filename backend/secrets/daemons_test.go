package secrets

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vika/backend/llm"
)

// daemonNames are the processes a keyring access without a session bus
// used to leave behind (comm is cut at 15 characters).
var daemonNames = []string{"dbus-daemon", "dbus-launch", "gnome-keyring-d"}

// daemons counts the processes of daemonNames, all of them and those
// whose environment holds mark (descendants of a run given that mark:
// dbus-launch passes its environment to the dbus-daemon it starts, which
// passes it to the services it activates).
func daemons(t *testing.T, mark string) (all, marked int) {
	t.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		comm, err := os.ReadFile(filepath.Join(p, "comm"))
		if err != nil || !contains(daemonNames, strings.TrimSpace(string(comm))) {
			continue
		}
		all++
		env, err := os.ReadFile(filepath.Join(p, "environ"))
		if err == nil && mark != "" && contains(strings.Split(string(env), "\x00"), mark) {
			marked++
		}
	}
	return all, marked
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestHeadlessRunStartsNoDaemon runs what `vika ask` does with the keys
// (secrets.New, the model list with each provider's key status, every key
// read) in a child process with no session bus, then counts the D-Bus and
// keyring daemons carrying the child's mark: none may be left.
func TestHeadlessRunStartsNoDaemon(t *testing.T) {
	if os.Getenv("VIKA_SECRETS_HEADLESS_CHILD") == "1" {
		headlessChild(t)
		return
	}
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("needs /proc to count processes")
	}
	b := make([]byte, 8)
	rand.Read(b)
	mark := "VIKA_DAEMON_MARK=" + hex.EncodeToString(b)
	allBefore, _ := daemons(t, "")

	tmp := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHeadlessRunStartsNoDaemon$", "-test.count=1", "-test.v")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + tmp, "XDG_RUNTIME_DIR=" + tmp,
		"VIKA_SECRETS_HEADLESS_CHILD=1", mark, "GROQ_API_KEY=gsk_fromTheEnvironment0123"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("headless child: %v\n%s", err, out)
	}
	time.Sleep(500 * time.Millisecond) // a daemon forked by the child shows up by now
	allAfter, marked := daemons(t, mark)
	t.Logf("dbus/keyring daemons on the machine: %d before, %d after; started by the run: %d", allBefore, allAfter, marked)
	if marked != 0 {
		t.Errorf("the headless run left %d D-Bus or keyring daemons running:\n%s", marked, out)
	}
	if !strings.Contains(string(out), "groq from environment") {
		t.Errorf("the child did not read the environment key:\n%s", out)
	}
}

// headlessChild is the child's side: what `vika ask` does with the keys.
func headlessChild(t *testing.T) {
	s := New()
	svc, err := llm.FromEnv(s)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, m := range svc.Models(ctx) {
		fmt.Printf("%s available=%v %s\n", m.Model.Key(), m.Available, m.Reason)
	}
	sts, err := s.StatusAll()
	fmt.Printf("status error: %v\n", err)
	for _, st := range sts {
		if st.Source == SourceEnv {
			fmt.Printf("%s from environment\n", st.Provider)
		}
	}
	if !IsNoBus(err) {
		t.Errorf("without a session bus the keyring error is %v, want ErrNoBus", err)
	}
}
