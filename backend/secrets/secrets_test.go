package secrets

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/llm"
	"vika/backend/message"
)

// fakeKeyring is an in-memory keyring; fail, when set, makes every call
// fail with that error.
type fakeKeyring struct {
	Keyring
	mu      sync.Mutex
	entries map[string]string // guarded by mu; key: service + "\x00" + user
	fail    func(op, secret string) error
}

func newFake() *fakeKeyring { return &fakeKeyring{entries: map[string]string{}} }

func (f *fakeKeyring) Get(service, user string) (string, error) {
	if f.fail != nil {
		return "", f.fail("get", "")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.entries[service+"\x00"+user]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

func (f *fakeKeyring) Set(service, user, secret string) error {
	if f.fail != nil {
		return f.fail("set", secret)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.entries[service+"\x00"+user] = secret
	return nil
}

func (f *fakeKeyring) Delete(service, user string) error {
	if f.fail != nil {
		return f.fail("delete", "")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.entries[service+"\x00"+user]; !ok {
		return ErrNotFound
	}
	delete(f.entries, service+"\x00"+user)
	return nil
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestSetKeyClearStatus(t *testing.T) {
	ring := newFake()
	s := NewWith(ring, env(nil))

	if st, err := s.Status("gemini"); err != nil || st.Configured {
		t.Fatalf("Status before Set = %+v, %v; want not configured", st, err)
	}
	if err := s.Set("gemini", "  AIzaSyTEST-key_123  "); err != nil {
		t.Fatal(err)
	}
	if got := ring.entries["vika\x00gemini"]; got != "AIzaSyTEST-key_123" {
		t.Errorf("keyring entry (service vika, user gemini) = %q, want the trimmed key", got)
	}
	if key, err := s.Key("gemini"); err != nil || key != "AIzaSyTEST-key_123" {
		t.Errorf("Key = %q, %v", key, err)
	}
	all, err := s.StatusAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []Status{
		{Provider: "gemini", Name: "Google Gemini", Configured: true, Source: SourceKeyring, EnvVar: "GEMINI_API_KEY"},
		{Provider: "groq", Name: "Groq", EnvVar: "GROQ_API_KEY"},
		{Provider: "mistral", Name: "Mistral AI", EnvVar: "MISTRAL_API_KEY"},
		{Provider: "openrouter", Name: "OpenRouter", EnvVar: "OPENROUTER_API_KEY"},
	}
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("StatusAll (-want +got):\n%s", diff)
	}
	if err := s.Clear("gemini"); err != nil {
		t.Fatal(err)
	}
	if err := s.Clear("gemini"); err != nil {
		t.Errorf("second Clear = %v, want nil", err)
	}
	if key, _ := s.Key("gemini"); key != "" {
		t.Errorf("Key after Clear = %q", key)
	}
}

func TestEnvOverridesKeyring(t *testing.T) {
	ring := newFake()
	s := NewWith(ring, env(map[string]string{"GROQ_API_KEY": "gsk_from_env"}))
	if err := s.Set("groq", "gsk_from_keyring"); err != nil {
		t.Fatal(err)
	}
	key, err := s.Key("groq")
	if err != nil || key != "gsk_from_env" {
		t.Errorf("Key = %q, %v; want the environment's", key, err)
	}
	st, _ := s.Status("groq")
	if !st.Configured || st.Source != SourceEnv {
		t.Errorf("Status = %+v, want configured from env", st)
	}
	if err := s.Clear("groq"); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Status("groq"); !st.Configured || st.Source != SourceEnv {
		t.Errorf("Status after Clear = %+v, want still configured from env", st)
	}
}

func TestInvalidInput(t *testing.T) {
	s := NewWith(newFake(), env(nil))
	tests := []struct {
		provider, key string
		want          error
	}{
		{"gemini", "", ErrInvalidKey},
		{"gemini", "   ", ErrInvalidKey},
		{"gemini", "two words", ErrInvalidKey},
		{"gemini", "line\nbreak", ErrInvalidKey},
		{"gemini", strings.Repeat("k", 1025), ErrInvalidKey},
		{"openai", "sk-123", ErrUnknownProvider},
		{"../etc", "k", ErrUnknownProvider},
	}
	for _, tt := range tests {
		if err := s.Set(tt.provider, tt.key); !errors.Is(err, tt.want) {
			t.Errorf("Set(%q, %.10q) = %v, want %v", tt.provider, tt.key, err, tt.want)
		}
	}
	if _, err := s.Key("nope"); !errors.Is(err, ErrUnknownProvider) {
		t.Errorf("Key(nope) = %v", err)
	}
	if err := s.Clear("nope"); !errors.Is(err, ErrUnknownProvider) {
		t.Errorf("Clear(nope) = %v", err)
	}
}

// TestKeyNeverInErrors: a keyring whose errors echo the secret (as a
// careless backend might) still yields messages without it.
func TestKeyNeverInErrors(t *testing.T) {
	const key = "sk-or-v1-SECRET0123456789"
	ring := newFake()
	ring.fail = func(op, secret string) error {
		return errors.New("dbus: org.freedesktop.Secret.Error: cannot " + op + " item with secret " + secret)
	}
	s := NewWith(ring, env(nil))
	err := s.Set("openrouter", key)
	if !errors.Is(err, ErrKeyring) {
		t.Fatalf("Set = %v, want ErrKeyring", err)
	}
	if strings.Contains(err.Error(), key) {
		t.Errorf("error holds the key: %v", err)
	}
	if _, err := s.Key("openrouter"); !errors.Is(err, ErrKeyring) {
		t.Errorf("Key = %v, want ErrKeyring", err)
	}
	all, err := s.StatusAll()
	if !errors.Is(err, ErrKeyring) || len(all) != 4 {
		t.Errorf("StatusAll = %v, %v; want 4 statuses and ErrKeyring", all, err)
	}
	for _, st := range all {
		if st.Configured {
			t.Errorf("%s configured though the keyring failed", st.Provider)
		}
		// The window gets a code and the keyring's own text, without the key.
		if k := st.KeyringError; k == nil || k.Code != message.KeyringFailed || !strings.Contains(fmt.Sprint(k.Params["detail"]), "dbus: org.freedesktop.Secret.Error: cannot get") ||
			strings.Contains(fmt.Sprint(k.Params), key) {
			t.Errorf("%s: keyring_error %+v does not say what failed", st.Provider, st.KeyringError)
		}
	}
}

// TestStatusHasNoKey: the JSON the frontend receives cannot hold a key.
func TestStatusHasNoKey(t *testing.T) {
	const key = "gsk_VERYSECRET"
	s := NewWith(newFake(), env(nil))
	if err := s.Set("groq", key); err != nil {
		t.Fatal(err)
	}
	all, _ := s.StatusAll()
	b, err := json.Marshal(all)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), key) {
		t.Errorf("status holds the key: %s", b)
	}
}

// TestNamesMatchCatalogue: the providers that take a key, and their names,
// are the model catalogue's.
func TestNamesMatchCatalogue(t *testing.T) {
	cat, err := llm.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range cat.Providers {
		if p.NeedsKey {
			got[p.ID] = p.Name
		}
	}
	if diff := cmp.Diff(Names, got); diff != "" {
		t.Errorf("secrets.Names (-have +catalogue):\n%s", diff)
	}
	for p := range Names {
		if EnvVars[p] == "" {
			t.Errorf("provider %s has no environment variable", p)
		}
	}
}
