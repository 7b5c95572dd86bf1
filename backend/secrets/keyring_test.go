package secrets

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"
)

// The tests below use the real OS keyring (Secret Service over D-Bus on
// Linux). They run when VIKA_KEYRING_TESTS=1, which scripts/setup/with-keyring.sh
// sets after starting a private D-Bus session with an unlocked
// gnome-keyring; they write under their own service name, never "vika".

func realStore(t *testing.T) *Store {
	t.Helper()
	if os.Getenv("VIKA_KEYRING_TESTS") != "1" {
		t.Skip("real keyring tests skipped: run them with scripts/setup/with-keyring.sh go test ./backend/secrets/ (sets VIKA_KEYRING_TESTS=1 inside a private D-Bus session with gnome-keyring unlocked)")
	}
	s := &Store{ring: systemKeyring{}, getenv: func(string) string { return "" },
		service: fmt.Sprintf("vika-test-%d", os.Getpid())}
	t.Cleanup(func() {
		for _, p := range Providers() {
			_ = keyring.Delete(s.service, p)
		}
	})
	return s
}

func TestRealKeyringRoundTrip(t *testing.T) {
	s := realStore(t)
	const key = "gsk_realKeyringTest_0123456789"
	if err := s.Set("groq", key); err != nil {
		t.Fatalf("Set: %v", err)
	}
	// A second store (a restarted app) reads the same entry.
	s2 := &Store{ring: systemKeyring{}, getenv: s.getenv, service: s.service}
	got, err := s2.Key("groq")
	if err != nil || got != key {
		t.Fatalf("Key from a new store = %q, %v; want the stored key", got, err)
	}
	if raw, err := keyring.Get(s.service, "groq"); err != nil || raw != key {
		t.Errorf("go-keyring Get(%s, groq) = %q, %v", s.service, raw, err)
	}
	st, err := s.Status("groq")
	if err != nil || !st.Configured || st.Source != SourceKeyring {
		t.Errorf("Status = %+v, %v", st, err)
	}
	if err := s.Set("groq", key+"2"); err != nil {
		t.Fatalf("Set (replace): %v", err)
	}
	if got, _ := s.Key("groq"); got != key+"2" {
		t.Errorf("Key after replace = %q", got)
	}
	if err := s.Clear("groq"); err != nil {
		t.Fatalf("Clear: %v", err)
	}
	if _, err := keyring.Get(s.service, "groq"); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("entry still there after Clear: %v", err)
	}
	if err := s.Clear("groq"); err != nil {
		t.Errorf("Clear of a missing entry = %v", err)
	}
	if st, _ := s.Status("groq"); st.Configured {
		t.Errorf("Status after Clear = %+v", st)
	}
}

func TestRealKeyringOneEntryPerProvider(t *testing.T) {
	s := realStore(t)
	keys := map[string]string{"gemini": "AIza-one", "mistral": "mistral-two", "openrouter": "sk-or-v1-three"}
	for p, k := range keys {
		if err := s.Set(p, k); err != nil {
			t.Fatalf("Set(%s): %v", p, err)
		}
	}
	for p, k := range keys {
		if got, err := s.Key(p); err != nil || got != k {
			t.Errorf("Key(%s) = %q, %v; want %q", p, got, err, k)
		}
	}
	if got, _ := s.Key("groq"); got != "" {
		t.Errorf("Key(groq) = %q, want none", got)
	}
	// secret-tool (libsecret) sees the same items, by service and user.
	if path, err := exec.LookPath("secret-tool"); err == nil {
		out, err := exec.Command(path, "lookup", "service", s.service, "username", "mistral").Output()
		if err != nil || strings.TrimSpace(string(out)) != "mistral-two" {
			t.Errorf("secret-tool lookup = %q, %v", out, err)
		}
	}
}

func TestRealKeyringEnvOverride(t *testing.T) {
	s := realStore(t)
	if err := s.Set("gemini", "AIza-keyring"); err != nil {
		t.Fatal(err)
	}
	s.getenv = func(k string) string {
		if k == "GEMINI_API_KEY" {
			return "AIza-env"
		}
		return ""
	}
	if got, _ := s.Key("gemini"); got != "AIza-env" {
		t.Errorf("Key = %q, want the environment's", got)
	}
	if st, _ := s.Status("gemini"); st.Source != SourceEnv {
		t.Errorf("Status = %+v, want source env", st)
	}
}
