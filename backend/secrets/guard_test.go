package secrets

import (
	"errors"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"
	"vika/backend/message"
)

// blockingKeyring is a locked keyring whose unlock prompt nobody answers:
// every call blocks until release is closed.
type blockingKeyring struct {
	Keyring
	release chan struct{}
	calls   chan string
}

func newBlocking(t *testing.T) *blockingKeyring {
	b := &blockingKeyring{release: make(chan struct{}), calls: make(chan string, 100)}
	t.Cleanup(func() { close(b.release) })
	return b
}

func (b *blockingKeyring) Get(_, user string) (string, error) {
	b.calls <- "get " + user
	<-b.release
	return "", ErrNotFound
}

func (b *blockingKeyring) Set(_, user, _ string) error {
	b.calls <- "set " + user
	<-b.release
	return nil
}

// TestLockedKeyringTimesOut: the first call waits for the timeout, then
// fails with ErrKeyring; later calls fail at once without another call
// into the keyring; a key from the environment is served without it.
func TestLockedKeyringTimesOut(t *testing.T) {
	ring := newBlocking(t)
	s := NewWithTimeout(ring, env(map[string]string{"GEMINI_API_KEY": "AIzaSyFROMENV"}), 200*time.Millisecond)

	start := time.Now()
	_, err := s.Key("groq")
	if took := time.Since(start); took < 150*time.Millisecond || took > 2*time.Second {
		t.Errorf("first read took %s, want about the 200ms timeout", took)
	}
	if !errors.Is(err, ErrKeyring) || !errors.Is(err, ErrNotAnswering) {
		t.Fatalf("err = %v, want ErrNotAnswering (ErrKeyring)", err)
	}
	start = time.Now()
	for _, p := range []string{"groq", "mistral", "openrouter"} {
		if _, err := s.Key(p); !errors.Is(err, ErrNotAnswering) {
			t.Errorf("Key(%s) = %v", p, err)
		}
	}
	if err := s.Set("groq", "gsk_new"); !errors.Is(err, ErrNotAnswering) {
		t.Errorf("Set = %v", err)
	}
	if took := time.Since(start); took > 100*time.Millisecond {
		t.Errorf("later calls took %s: they must fail at once while the keyring hangs", took)
	}
	if k, err := s.Key("gemini"); err != nil || k != "AIzaSyFROMENV" {
		t.Errorf("environment key = %q, %v", k, err)
	}
	if n := len(ring.calls); n != 1 {
		t.Errorf("%d calls reached the hung keyring, want 1", n)
	}
	sts, err := s.StatusAll()
	if !errors.Is(err, ErrKeyring) || len(sts) != 4 {
		t.Fatalf("StatusAll = %+v, %v", sts, err)
	}
	for _, st := range sts {
		if st.Provider == "gemini" && (!st.Configured || st.Source != SourceEnv) {
			t.Errorf("gemini status = %+v", st)
		}
		if st.Provider != "gemini" && (st.Configured || st.KeyringError == nil || st.KeyringError.Code != message.KeyringTimeout || st.KeyringError.Params["limit"] == "") {
			t.Errorf("%s status = %+v, want not configured with the keyring's error", st.Provider, st)
		}
	}
}

// TestKeyringRecovers: once the hung call returns, the keyring is used
// again.
func TestKeyringRecovers(t *testing.T) {
	ring := &blockingKeyring{release: make(chan struct{}), calls: make(chan string, 10)}
	s := NewWithTimeout(ring, env(nil), 100*time.Millisecond)
	if _, err := s.Key("groq"); !errors.Is(err, ErrNotAnswering) {
		t.Fatalf("err = %v", err)
	}
	close(ring.release)
	deadline := time.Now().Add(2 * time.Second)
	for {
		k, err := s.Key("groq")
		if err == nil && k == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the keyring stayed unusable after the call returned: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSessionBusDetection: an address in the environment counts; without
// one, only the per-user bus socket that godbus itself looks for counts.
func TestSessionBusDetection(t *testing.T) {
	if ok, _ := sessionBus(env(map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"})); !ok {
		t.Error("an explicit address was not taken")
	}
	for _, addr := range []string{"", "autolaunch:"} {
		ok, why := sessionBus(env(map[string]string{"DBUS_SESSION_BUS_ADDRESS": addr}))
		_, statErr := os.Stat("/run/user/" + strconv.Itoa(os.Getuid()) + "/bus")
		if statErr == nil {
			if !ok {
				t.Errorf("address %q with a per-user bus socket: no bus", addr)
			}
			continue
		}
		if ok || why == "" {
			t.Errorf("address %q and no per-user bus: ok=%v why=%q", addr, ok, why)
		}
	}
	var n noKeyring = noKeyring{why: "test"}
	if _, err := n.Get("vika", "groq"); !errors.Is(err, ErrKeyring) || !IsNoBus(err) || message.Of(err).Code != message.KeyringNoBus {
		t.Errorf("noKeyring error = %v", err)
	}
}

// slowWrites is a keyring held in a map whose writes wait for gate.
type slowWrites struct {
	Keyring
	mu   sync.Mutex
	keys map[string]string
	gate chan struct{}
	done chan struct{} // receives after each write returns
}

func (k *slowWrites) Get(_, user string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.keys[user]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

func (k *slowWrites) Set(_, user, secret string) error {
	<-k.gate
	k.mu.Lock()
	k.keys[user] = secret
	k.mu.Unlock()
	k.done <- struct{}{}
	return nil
}

func (k *slowWrites) Delete(_, user string) error {
	<-k.gate
	k.mu.Lock()
	delete(k.keys, user)
	k.mu.Unlock()
	k.done <- struct{}{}
	return nil
}

// TestLateWriteIsUndone: a Set that times out (the student is told the
// key was not saved) and lands later is undone, the old key put back; so
// is a late Delete, and a late Set of a key that was not there is
// deleted. Before, the key reported as not saved was saved.
func TestLateWriteIsUndone(t *testing.T) {
	for _, c := range []struct {
		name  string
		had   bool
		write func(g *guarded) error
	}{
		{"a new key over an old one", true, func(g *guarded) error { return g.Set(Service, "groq", "gsk_new") }},
		{"a new key where there was none", false, func(g *guarded) error { return g.Set(Service, "groq", "gsk_new") }},
		{"a deletion", true, func(g *guarded) error { return g.Delete(Service, "groq") }},
	} {
		ring := &slowWrites{keys: map[string]string{}, gate: make(chan struct{}), done: make(chan struct{}, 4)}
		if c.had {
			ring.keys["groq"] = "gsk_old"
		}
		g := &guarded{ring: ring, timeout: 50 * time.Millisecond}
		if err := c.write(g); !errors.Is(err, ErrNotAnswering) {
			t.Fatalf("%s: err = %v, want a time-out", c.name, err)
		}
		close(ring.gate) // the keyring answers at last
		<-ring.done      // the late write
		select {         // its undo
		case <-ring.done:
		case <-time.After(2 * time.Second):
			t.Errorf("%s: the late write was not undone", c.name)
		}
		v, err := ring.Get(Service, "groq")
		switch {
		case c.had && (err != nil || v != "gsk_old"):
			t.Errorf("%s: the key is %q (%v), want the old one back", c.name, v, err)
		case !c.had && !errors.Is(err, ErrNotFound):
			t.Errorf("%s: the key is %q, want none (as the student was told)", c.name, v)
		}
		deadline := time.Now().Add(2 * time.Second)
		for _, err := g.Get(Service, "groq"); errors.Is(err, ErrNotAnswering); _, err = g.Get(Service, "groq") {
			if time.Now().After(deadline) {
				t.Errorf("%s: still stuck after the keyring answered", c.name)
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
}
