package secrets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"vika/backend/message"
)

// DefaultTimeout bounds every keyring call: a locked keyring whose unlock
// prompt is ignored, or a Secret Service that does not answer, costs at
// most this long, once (see guarded).
const DefaultTimeout = 3 * time.Second

// ErrNotAnswering is a keyring call that did not return within the
// timeout; it wraps ErrKeyring.
var ErrNotAnswering = fmt.Errorf("%w: it did not answer (is it locked?)", ErrKeyring)

// guarded runs the calls of a Keyring with a timeout. A call that does not
// return in time is left running in its goroutine (D-Bus calls cannot be
// interrupted) and every later call fails at once, without touching the
// keyring, until that call returns: a hung keyring costs one timeout, not
// one per key, and never piles up goroutines.
type guarded struct {
	ring    Keyring
	timeout time.Duration

	mu    sync.Mutex
	stuck bool // guarded by mu: a call outlived its timeout and has not returned yet
}

func (g *guarded) do(fn func() (string, error)) (string, error) {
	return g.undoable(fn, nil)
}

// undoable is do for a write: when fn outlives its timeout (the caller was
// told it failed) and then succeeds, undo runs in its goroutine, so that a
// write reported as failed does not land later.
func (g *guarded) undoable(fn func() (string, error), undo func()) (string, error) {
	g.mu.Lock()
	if g.stuck {
		g.mu.Unlock()
		return "", message.Wrap(ErrNotAnswering, message.KeyringTimeout, "limit", g.timeout.String())
	}
	g.mu.Unlock()
	type result struct {
		v   string
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := fn()
		g.mu.Lock()
		late := g.stuck
		if late && err == nil && undo != nil {
			undo() // still stuck for the others until it returns
		}
		g.stuck = false
		g.mu.Unlock()
		done <- result{v, err}
	}()
	t := time.NewTimer(g.timeout)
	defer t.Stop()
	select {
	case r := <-done:
		return r.v, r.err
	case <-t.C:
		g.mu.Lock()
		select {
		case r := <-done: // returned while the lock was taken
			g.mu.Unlock()
			return r.v, r.err
		default:
		}
		g.stuck = true
		g.mu.Unlock()
		return "", message.Wrap(fmt.Errorf("%w after %s", ErrNotAnswering, g.timeout), message.KeyringTimeout, "limit", g.timeout.String())
	}
}

func (g *guarded) Get(service, user string) (string, error) {
	return g.do(func() (string, error) { return g.ring.Get(service, user) })
}

// Set reads the key's value first (a keyring that does not answer then
// fails before anything is written), and a write that lands after its
// timeout puts that value back (or deletes the key it created).
func (g *guarded) Set(service, user, secret string) error {
	old, err := g.do(func() (string, error) { return g.ring.Get(service, user) })
	had := err == nil
	if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	_, err = g.undoable(func() (string, error) { return "", g.ring.Set(service, user, secret) }, func() {
		if had {
			g.ring.Set(service, user, old)
		} else {
			g.ring.Delete(service, user)
		}
	})
	return err
}

// Delete reads the key's value first, and a deletion that lands after its
// timeout puts it back.
func (g *guarded) Delete(service, user string) error {
	old, err := g.do(func() (string, error) { return g.ring.Get(service, user) })
	if errors.Is(err, ErrNotFound) {
		return err
	}
	if err != nil {
		return err
	}
	_, err = g.undoable(func() (string, error) { return "", g.ring.Delete(service, user) }, func() {
		g.ring.Set(service, user, old)
	})
	return err
}

// noKeyring is the Keyring of a process that has no session bus: every
// call fails with why, and nothing is started.
type noKeyring struct{ why string }

func (n noKeyring) Get(string, string) (string, error) { return "", n.err() }
func (n noKeyring) Set(string, string, string) error   { return n.err() }
func (n noKeyring) Delete(string, string) error        { return n.err() }
func (n noKeyring) err() error {
	return message.Wrap(fmt.Errorf("%w: %s", ErrNoBus, n.why), message.KeyringNoBus)
}

// ErrNoBus is the keyring of a process without a D-Bus session bus: Vika
// does not start one (it would outlive Vika); it wraps ErrKeyring.
var ErrNoBus = fmt.Errorf("%w: no D-Bus session", ErrKeyring)

// sessionBus says whether a D-Bus session bus can be reached without
// starting one, the way godbus finds it: DBUS_SESSION_BUS_ADDRESS (other
// than "autolaunch:"), else /run/user/<uid>/bus, else the address in
// /run/user/<uid>/dbus-session. When none is there, godbus would run
// dbus-launch, whose dbus-daemon (and the gnome-keyring-daemon it
// activates) keep running after Vika exits. Other systems than Linux and
// the BSDs have their own keyrings and always count as having one.
func sessionBus(getenv func(string) string) (ok bool, why string) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		return true, ""
	}
	if a := strings.TrimSpace(getenv("DBUS_SESSION_BUS_ADDRESS")); a != "" && a != "autolaunch:" {
		return true, ""
	}
	run := "/run/user/" + strconv.Itoa(os.Getuid())
	if _, err := os.Stat(filepath.Join(run, "bus")); err == nil {
		return true, ""
	}
	if b, err := os.ReadFile(filepath.Join(run, "dbus-session")); err == nil && strings.HasPrefix(string(b), "DBUS_SESSION_BUS_ADDRESS=") {
		return true, ""
	}
	return false, "DBUS_SESSION_BUS_ADDRESS is not set and no session bus was found, so the keyring is not used " +
		"(keys come from the environment variables)"
}

// IsNoBus reports whether err is the keyring's absence for want of a
// session bus (not a failure of a keyring that is there).
func IsNoBus(err error) bool { return errors.Is(err, ErrNoBus) }
