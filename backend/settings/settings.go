// Package settings keeps the user's answering preferences (rag.Settings)
// between sessions, in one JSON file of the user's configuration directory.
// The file never holds an API key (keys live in the OS keyring).
package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"vika/backend/rag"
)

// Path is where the settings are kept:
// os.UserConfigDir()/vika/settings.json.
func Path() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no configuration directory for the settings: %w", err)
	}
	return filepath.Join(dir, "vika", "settings.json"), nil
}

// Load reads the settings at path; a missing file gives
// DefaultSettings. Missing fields take their default; unknown fields are
// dropped. A file that cannot be read or is invalid is an error (with the
// defaults, which the caller may use instead).
func Load(path string) (rag.Settings, error) {
	s := rag.DefaultSettings()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read the settings: %w", err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return rag.DefaultSettings(), fmt.Errorf("the settings file %s is damaged: %v", path, err)
	}
	if err := s.Validate(); err != nil {
		return rag.DefaultSettings(), fmt.Errorf("the settings file %s: %w", path, err)
	}
	return s, nil
}

// Save validates s and writes it to path (creating its directory),
// replacing the previous file atomically.
func Save(path string, s rag.Settings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save the settings: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".settings-*.json")
	if err != nil {
		return fmt.Errorf("save the settings: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("save the settings: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save the settings: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("save the settings: %w", err)
	}
	return nil
}
