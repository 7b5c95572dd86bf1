package models

import (
	"fmt"
	"os"
	"path"

	"vika/backend/assets"
)

// Verify checks that every file of m is installed under root and matches its
// pinned size and sha256, and returns their paths by registry path. Errors
// wrap ErrNotInstalled, ErrChecksum or ErrUnverified (an entry without
// pins) and say what to run.
func Verify(root string, m Model) (map[string]string, error) {
	if err := checkPinned(m); err != nil {
		return nil, err
	}
	paths := make(map[string]string, len(m.Files))
	for _, f := range m.Files {
		path := m.Path(root, f)
		info, err := os.Stat(path)
		if err != nil || !info.Mode().IsRegular() {
			return nil, problem(ErrNotInstalled, "%s is not installed (%s missing): run `vika models download %s`", m.Name, f.Path, m.Name)
		}
		if info.Size() != f.Size {
			return nil, problem(ErrSize, "%s: %s is corrupt (%d bytes, want %d): run `vika models download %s`", m.Name, f.Path, info.Size(), f.Size, m.Name)
		}
		sum, err := assets.FileSHA256(path, info)
		if err != nil {
			return nil, err
		}
		if sum != f.SHA256 {
			return nil, problem(ErrChecksum, "%s: %s is corrupt (sha256 %s, want %s): run `vika models download %s`", m.Name, f.Path, sum, f.SHA256, m.Name)
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
		case isONNX(rel):
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
