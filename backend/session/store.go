package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"vika/backend/atomicfile"
	"vika/backend/rag"
)

// SettingsPath is where the settings are kept:
// os.UserConfigDir()/vika/settings.json. The file never holds an API key
// (keys live in the OS keyring).
func SettingsPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no configuration directory for the settings: %w", err)
	}
	return filepath.Join(dir, "vika", "settings.json"), nil
}

// LoadSettings reads the settings at path; a missing file gives
// DefaultSettings. Missing fields take their default; unknown fields are
// dropped. A file that cannot be read or is invalid is an error (with the
// defaults, which the caller may use instead).
func LoadSettings(path string) (Settings, error) {
	s := DefaultSettings()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read the settings: %w", err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return DefaultSettings(), fmt.Errorf("the settings file %s is damaged: %v", path, err)
	}
	if err := s.Validate(); err != nil {
		return DefaultSettings(), fmt.Errorf("the settings file %s: %w", path, err)
	}
	return s, nil
}

// SaveSettings validates s and writes it to path (creating its directory),
// replacing the previous file atomically; the recent course files the file
// holds are kept (recent.go).
func SaveSettings(path string, s Settings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	file := struct {
		Settings
		Recent []string `json:"recent_courses,omitempty"` // recentKey
	}{Settings: s}
	file.Recent, _ = readRecent(path)
	data, err := json.MarshalIndent(file, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save the settings: %w", err)
	}
	if err := atomicfile.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("save the settings: %w", err)
	}
	return nil
}

// openSettings reads the settings once, at Open.
func (s *Session) openSettings(o Options) {
	s.settings = DefaultSettings()
	if o.NoSettings {
		return
	}
	s.path = o.SettingsPath
	if s.path == "" {
		s.path, _ = SettingsPath() // none: the defaults, nothing saved
	}
	if s.path != "" {
		s.settings, s.loadErr = LoadSettings(s.path)
	}
}

// Settings returns the settings as last loaded or saved (the defaults when
// none were saved); a file that could not be read gives the defaults and
// why, until settings are saved.
func (s *Session) Settings() (Settings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings, s.loadErr
}

// AskOptions are the per-question options of the settings in force
// (Settings.Options): the window asks with them, adding only what is the
// question's own (its scope, a selection, the ask box's switches).
func (s *Session) AskOptions() rag.Options {
	st, _ := s.Settings()
	return st.Options()
}

// SetSettings validates and saves the settings; the session uses them at
// once (the local Ollama switch, the document cache, the chunking of the
// documents added afterwards).
func (s *Session) SetSettings(ctx context.Context, st Settings) error {
	if s.path == "" {
		return errors.New("settings cannot be saved: there is no configuration directory")
	}
	s.saving.Lock()
	defer s.saving.Unlock()
	s.mu.Lock()
	err := SaveSettings(s.path, st)
	if err == nil {
		s.settings, s.loadErr = st, nil
	}
	s.mu.Unlock()
	if err != nil {
		return err
	}
	s.useLocal(st.Ollama)
	s.eng.SetChunking(st.Chunking())
	return s.remember(ctx, st)
}
