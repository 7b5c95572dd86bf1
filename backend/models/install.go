package models

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"vika/backend/assets"
)

// pinsFile, in a model's directory, records the sha256 and size of files
// downloaded with TrustOnFirstDownload, so that later checks have something
// to compare with. The registry's own values win when present.
const pinsFile = "pins.json"

// Pin is a recorded hash of one downloaded file.
type Pin struct {
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

func readPins(dir string) (map[string]Pin, error) {
	raw, err := os.ReadFile(filepath.Join(dir, pinsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]Pin{}, nil
	} else if err != nil {
		return nil, err
	}
	pins := map[string]Pin{}
	if err := json.Unmarshal(raw, &pins); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, pinsFile), err)
	}
	return pins, nil
}

func writePin(dir, path string, p Pin) error {
	pins, err := readPins(dir)
	if err != nil {
		return err
	}
	pins[path] = p
	raw, err := json.MarshalIndent(pins, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, pinsFile+".tmp")
	if err := os.WriteFile(tmp, append(raw, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, pinsFile))
}

// expected returns the pinned hash and size of f: the registry's, else the
// one recorded at the first download (ok false: none).
func expected(pins map[string]Pin, f File) (p Pin, ok bool) {
	if f.SHA256 != "" {
		return Pin{f.SHA256, f.Size}, true
	}
	p, ok = pins[f.Path]
	return p, ok
}

// Verify checks that every file of m is installed under root and matches its
// pinned sha256, and returns their paths by registry path. Errors wrap
// ErrNotInstalled, ErrChecksum or ErrUnverified (files present but never
// pinned) and say what to run.
func Verify(root string, m Model) (map[string]string, error) {
	dir := m.Dir(root)
	pins, err := readPins(dir)
	if err != nil {
		return nil, err
	}
	paths := make(map[string]string, len(m.Files))
	for _, f := range m.Files {
		path := m.Path(root, f)
		info, err := os.Stat(path)
		if err != nil || !info.Mode().IsRegular() {
			return nil, problem(ErrNotInstalled, "%s is not installed (%s missing): run `vika models download %s`", m.Name, f.Path, m.Name)
		}
		want, ok := expected(pins, f)
		if !ok {
			return nil, problem(ErrUnverified, "%s: %s has no pinned sha256: run `vika models download --trust-on-first-download %s`", m.Name, f.Path, m.Name)
		}
		sum, err := assets.FileSHA256(path, info)
		if err != nil {
			return nil, err
		}
		if sum != want.SHA256 || (want.Size > 0 && info.Size() != want.Size) {
			return nil, problem(ErrChecksum, "%s: %s is corrupt (sha256 %s, want %s): run `vika models download %s`", m.Name, f.Path, sum, want.SHA256, m.Name)
		}
		paths[f.Path] = path
	}
	return paths, nil
}

// Installed reports whether m verifies under root.
func Installed(root string, m Model) bool {
	_, err := Verify(root, m)
	return err == nil
}

// userError is a message safe to show that errors.Is matches with a sentinel.
type userError struct {
	msg  string
	kind error
}

func (e *userError) Error() string { return e.msg }
func (e *userError) Unwrap() error { return e.kind }

func problem(kind error, format string, args ...any) error {
	return &userError{fmt.Sprintf(format, args...), kind}
}

// Locate verifies m under root (see Verify) and returns the paths of its
// ONNX model and its tokenizer.json.
func Locate(root string, m Model) (model, tokenizer string, err error) {
	paths, err := Verify(root, m)
	if err != nil {
		return "", "", err
	}
	for rel, p := range paths {
		switch {
		case strings.HasSuffix(rel, ".onnx"):
			model = p
		case path.Base(rel) == "tokenizer.json":
			tokenizer = p
		}
	}
	if model == "" || tokenizer == "" {
		return "", "", fmt.Errorf("%s: the registry lists no .onnx file or no tokenizer.json", m.Name)
	}
	return model, tokenizer, nil
}
