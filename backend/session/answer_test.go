package session

import (
	"errors"
	"os"
	"strconv"
	"testing"
	"time"

	"vika/backend/message"
	"vika/backend/secrets"
)

// hungKeyring never answers (a locked keyring whose prompt nobody sees).
type hungKeyring struct {
	secrets.Keyring
	release chan struct{}
}

func (h hungKeyring) Get(string, string) (string, error) { <-h.release; return "", secrets.ErrNotFound }

// TestKeyStatusWithoutKeyring: with no keyring (no session bus: the store
// secrets.New builds then), or one that hangs, KeyStatus answers at once
// or within the keyring's timeout, without an error: keys from the
// environment show as configured, the others carry the keyring's problem.
func TestKeyStatusWithoutKeyring(t *testing.T) {
	t.Setenv("GROQ_API_KEY", "gsk_fromTheEnvironment0123")
	release := make(chan struct{})
	defer close(release)
	// The window gets the code of each case.
	codes := map[string]string{"hung": message.KeyringTimeout, "no session bus": message.KeyringNoBus}
	stores := map[string]func() *secrets.Store{
		"hung": func() *secrets.Store {
			return secrets.NewWithTimeout(hungKeyring{release: release}, os.Getenv, 300*time.Millisecond)
		},
	}
	if _, err := os.Stat("/run/user/" + strconv.Itoa(os.Getuid()) + "/bus"); err != nil {
		stores["no session bus"] = func() *secrets.Store {
			t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
			return secrets.New()
		}
	}
	for name, store := range stores {
		t.Run(name, func(t *testing.T) {
			s := &Session{keys: store()}
			start := time.Now()
			sts, err := s.KeyStatus()
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("KeyStatus took %s", took)
			}
			if err != nil || len(sts) != 4 {
				t.Fatalf("KeyStatus = %+v, %v", sts, err)
			}
			for _, st := range sts {
				switch {
				case st.Provider == "groq" && (!st.Configured || st.Source != secrets.SourceEnv):
					t.Errorf("groq = %+v, want configured from the environment", st)
				case st.Provider != "groq" && (st.Configured || st.KeyringError == nil || st.KeyringError.Code != codes[name]):
					t.Errorf("%s = %+v, want not configured, with the keyring's problem", st.Provider, st)
				}
			}
			if err := s.SetKey("gemini", "AIzaSyNEW0123"); !errors.Is(err, secrets.ErrKeyring) {
				t.Errorf("SetKey = %v, want ErrKeyring", err)
			}
		})
	}
}
