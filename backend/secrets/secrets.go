// Package secrets keeps the providers' API keys in the operating system's
// keyring (Secret Service on Linux, Keychain on macOS, Credential Manager
// on Windows) through github.com/zalando/go-keyring: service "vika", one
// entry per provider, the provider id as the user name. An environment
// variable (GEMINI_API_KEY, MISTRAL_API_KEY, GROQ_API_KEY,
// OPENROUTER_API_KEY) overrides the keyring.
//
// Every keyring call has a timeout (DefaultTimeout): a locked keyring
// whose unlock prompt is ignored cannot hold up an answer, its
// cancellation or quitting. Where no D-Bus session bus exists (a headless
// run over ssh, a CI job), the keyring is not used at all: go-keyring
// would start a bus with dbus-launch, and that dbus-daemon and the
// gnome-keyring-daemon it activates would outlive Vika. Keys then come
// from the environment variables only.
//
// A key goes out of this package only through Store.Key, to the provider
// that sends it. Status reports "configured: yes/no" and where from; no
// error message holds a key.
package secrets

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/zalando/go-keyring"

	"vika/backend/config"
	"vika/backend/message"
)

// Service is the keyring service name of Vika's entries.
const Service = "vika"

// EnvVars maps each provider that needs a key to the environment variable
// that overrides its keyring entry.
var EnvVars = map[string]string{
	"gemini":     "GEMINI_API_KEY",
	"mistral":    "MISTRAL_API_KEY",
	"groq":       "GROQ_API_KEY",
	"openrouter": "OPENROUTER_API_KEY",
}

var (
	ErrUnknownProvider = errors.New("unknown provider")
	ErrInvalidKey      = errors.New("invalid API key")
	ErrKeyring         = errors.New("the system keyring is not available")
)

// Keyring is the part of the OS keyring the store uses. Get returns
// ErrNotFound when there is no entry.
type Keyring interface {
	Get(service, user string) (string, error)
	Set(service, user, secret string) error
	Delete(service, user string) error
}

// ErrNotFound is what a Keyring returns for a missing entry.
var ErrNotFound = keyring.ErrNotFound

// systemKeyring is the OS keyring through go-keyring.
type systemKeyring struct{}

func (systemKeyring) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (systemKeyring) Set(service, user, secret string) error {
	return keyring.Set(service, user, secret)
}
func (systemKeyring) Delete(service, user string) error { return keyring.Delete(service, user) }

// Names are the display names of the providers that take a key, as the
// model catalogue (backend/llm/models.json) names them.
var Names = map[string]string{
	"gemini":     "Google Gemini",
	"mistral":    "Mistral AI",
	"groq":       "Groq",
	"openrouter": "OpenRouter",
}

// Source says where a configured key comes from.
const (
	SourceEnv     = "environment"
	SourceKeyring = "keyring"
)

// Status is what the frontend may know of a key.
type Status struct {
	Provider   string `json:"provider"`
	Name       string `json:"name"`
	Configured bool   `json:"configured"`
	Source     string `json:"source"`  // SourceEnv, SourceKeyring, or "" when not configured
	EnvVar     string `json:"env_var"` // the variable that would override the keyring
	// KeyringError says why the keyring could not be read for this
	// provider (a message.Keyring* code; nil when it could); a key from
	// the environment still counts.
	KeyringError *message.Message `json:"keyring_error,omitempty"`
}

// Store reads and writes the keys. Its methods are safe for concurrent
// use (the keyring serialises its own access).
type Store struct {
	ring    Keyring
	getenv  func(string) string
	service string
}

// New returns the store backed by the OS keyring and the process
// environment, each keyring call bounded by DefaultTimeout. Without a
// session bus (see package doc) the store reads the environment only.
func New() *Store {
	var ring Keyring = systemKeyring{}
	if ok, why := sessionBus(config.Getenv); !ok {
		ring = noKeyring{why: why}
	}
	return NewWithTimeout(ring, config.Getenv, DefaultTimeout)
}

// NewWith returns a store backed by ring and getenv (fakes in tests), each
// keyring call bounded by DefaultTimeout.
func NewWith(ring Keyring, getenv func(string) string) *Store {
	return NewWithTimeout(ring, getenv, DefaultTimeout)
}

// NewWithTimeout is NewWith with each keyring call bounded by timeout (0:
// DefaultTimeout).
func NewWithTimeout(ring Keyring, getenv func(string) string, timeout time.Duration) *Store {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Store{ring: &guarded{ring: ring, timeout: timeout}, getenv: getenv, service: Service}
}

// Providers lists the providers that take a key, sorted.
func Providers() []string {
	out := make([]string, 0, len(EnvVars))
	for p := range EnvVars {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// Key returns the provider's key: the environment variable's when set,
// else the keyring's, else "" (and no error).
func (s *Store) Key(provider string) (string, error) {
	key, _, err := s.lookup(provider)
	return key, err
}

func (s *Store) lookup(provider string) (key, source string, err error) {
	env, ok := EnvVars[provider]
	if !ok {
		return "", "", fmt.Errorf("%w %q", ErrUnknownProvider, provider)
	}
	if v := strings.TrimSpace(s.getenv(env)); v != "" {
		return v, SourceEnv, nil
	}
	v, err := s.ring.Get(s.service, provider)
	switch {
	case errors.Is(err, ErrNotFound):
		return "", "", nil
	case err != nil:
		return "", "", keyringError("read", provider, err)
	}
	return v, SourceKeyring, nil
}

// Set stores the provider's key in the keyring. The key is trimmed; it
// must be one line of printable characters without spaces, at most 1024
// bytes. When an environment variable overrides the keyring the key is
// still stored; Status then reports the environment as the source.
func (s *Store) Set(provider, key string) error {
	if _, ok := EnvVars[provider]; !ok {
		return fmt.Errorf("%w %q", ErrUnknownProvider, provider)
	}
	key = strings.TrimSpace(key)
	if err := checkKey(key); err != nil {
		return err
	}
	if err := s.ring.Set(s.service, provider, key); err != nil {
		return keyringError("store", provider, err, key)
	}
	return nil
}

func checkKey(key string) error {
	switch {
	case key == "":
		return fmt.Errorf("%w: it is empty", ErrInvalidKey)
	case len(key) > 1024:
		return fmt.Errorf("%w: it is longer than 1024 bytes", ErrInvalidKey)
	case strings.IndexFunc(key, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }) >= 0:
		return fmt.Errorf("%w: it must be one word of printable characters", ErrInvalidKey)
	}
	return nil
}

// Clear removes the provider's key from the keyring (no error when there
// was none). A key from the environment stays in effect.
func (s *Store) Clear(provider string) error {
	if _, ok := EnvVars[provider]; !ok {
		return fmt.Errorf("%w %q", ErrUnknownProvider, provider)
	}
	if err := s.ring.Delete(s.service, provider); err != nil && !errors.Is(err, ErrNotFound) {
		return keyringError("remove", provider, err)
	}
	return nil
}

// Status reports whether the provider has a key, and where from.
func (s *Store) Status(provider string) (Status, error) {
	_, source, err := s.lookup(provider)
	if err != nil && !errors.Is(err, ErrKeyring) {
		return Status{}, err
	}
	st := Status{Provider: provider, Name: Names[provider], Configured: source != "", Source: source, EnvVar: EnvVars[provider]}
	if err != nil {
		m := message.Of(err)
		st.KeyringError = &m
	}
	return st, err
}

// StatusAll reports every provider, sorted. A keyring failure is returned
// with the statuses that could be read (environment keys still show).
func (s *Store) StatusAll() ([]Status, error) {
	var out []Status
	var errs []error
	for _, p := range Providers() {
		st, err := s.Status(p)
		if err != nil {
			errs = append(errs, err)
		}
		out = append(out, st)
	}
	return out, errors.Join(errs...)
}

// keyringError wraps a keyring failure in a message safe to show: the
// underlying text is kept (it says what is wrong with the keyring) with any
// key removed from it.
func keyringError(op, provider string, err error, keys ...string) error {
	if errors.Is(err, ErrKeyring) { // this package's own (timeout, no bus): no key in it
		return fmt.Errorf("could not %s the %s key: %w", op, provider, err)
	}
	msg := err.Error()
	for _, k := range keys {
		if k != "" {
			msg = strings.ReplaceAll(msg, k, "[redacted]")
		}
	}
	return message.Wrap(fmt.Errorf("%w: could not %s the %s key: %s", ErrKeyring, op, provider, msg), message.KeyringFailed, "detail", msg)
}
