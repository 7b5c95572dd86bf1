// Package modelstest installs registry models from local fixtures the way
// `vika models download` installs them from Hugging Face: a local server
// answers on the model's Hugging Face paths, and the real downloader fetches
// from it and checks every file against its pin. The registry pins the real
// files' hashes, so Pin first re-pins the entry to the fixtures' own hashes
// for the test's duration. The tests use the tiny seeded models of
// testdata/bert (one ONNX file and a tokenizer.json) and testdata/clip (a
// text and a vision model, the tokenizer.json and the
// preprocessor_config.json: PinFiles and InstallFiles take one fixture per
// registry file).
package modelstest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"vika/backend/models"
)

// Pin puts in the registry, until the test ends, the entry called name with
// each of its files pinned to a fixture: onnx for the .onnx file, tokenizer
// for the others (sha256 and size of the fixture's bytes), and returns it.
// Tests that call it must not run in parallel with each other.
func Pin(tb testing.TB, name, onnx, tokenizer string) models.Model {
	tb.Helper()
	return PinFiles(tb, name, byKind(tb, name, onnx, tokenizer))
}

// Files maps the registry path of each file of a model to its fixture.
type Files map[string]string

// byKind gives every .onnx file of the model name the fixture onnx and
// its other files the fixture tokenizer.
func byKind(tb testing.TB, name, onnx, tokenizer string) Files {
	tb.Helper()
	m, err := models.Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	files := Files{}
	for _, f := range m.Files {
		files[f.Path] = tokenizer
		if strings.HasSuffix(f.Path, ".onnx") {
			files[f.Path] = onnx
		}
	}
	return files
}

// PinFiles is Pin with one fixture per registry file; a file of the
// model without a fixture fails the test.
func PinFiles(tb testing.TB, name string, files Files) models.Model {
	tb.Helper()
	m, err := models.Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	m.Files = append([]models.File(nil), m.Files...)
	for i, f := range m.Files {
		raw := read(tb, source(tb, f, files))
		sum := sha256.Sum256(raw)
		m.Files[i].SHA256, m.Files[i].Size = hex.EncodeToString(sum[:]), int64(len(raw))
	}
	tb.Cleanup(models.Replace(m))
	return m
}

func source(tb testing.TB, f models.File, files Files) string {
	tb.Helper()
	p, ok := files[f.Path]
	if !ok {
		tb.Fatalf("modelstest: no fixture for %s", f.Path)
	}
	return p
}

func read(tb testing.TB, path string) []byte {
	tb.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

// Serve starts a server (closed at the test's end) that holds the file onnx
// as every .onnx file of m and the file tokenizer as its other files, at
// their Hugging Face paths (each file's own repository and revision).
func Serve(tb testing.TB, m models.Model, onnx, tokenizer string) *httptest.Server {
	tb.Helper()
	return ServeFiles(tb, m, byKind(tb, m.Name, onnx, tokenizer))
}

// ServeFiles is Serve with one fixture per registry file.
func ServeFiles(tb testing.TB, m models.Model, fixtures Files) *httptest.Server {
	tb.Helper()
	files := map[string][]byte{}
	for _, f := range m.Files {
		files[m.URL("", f)] = read(tb, source(tb, f, fixtures))
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(raw))
	}))
	tb.Cleanup(srv.Close)
	return srv
}

// Install pins the registry model name to the fixtures onnx and tokenizer
// (Pin), serves them and installs them under root through the downloader,
// and returns the model.
func Install(tb testing.TB, root, name, onnx, tokenizer string) models.Model {
	tb.Helper()
	return InstallFiles(tb, root, name, byKind(tb, name, onnx, tokenizer))
}

// InstallFiles is Install with one fixture per registry file.
func InstallFiles(tb testing.TB, root, name string, files Files) models.Model {
	tb.Helper()
	m := PinFiles(tb, name, files)
	srv := ServeFiles(tb, m, files)
	d := &models.Downloader{BaseURL: srv.URL, Root: root}
	if err := d.Download(context.Background(), m); err != nil {
		tb.Fatal(err)
	}
	return m
}

// CLIPDir is the repository's testdata/clip: the tiny CLIP-shaped model of
// its gen.sh.
func CLIPDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "clip")
}

// CLIPFiles maps the registry's text-to-image model (models.RoleImage)
// to the fixtures of CLIPDir, and returns its name with them.
func CLIPFiles(tb testing.TB) (string, Files) {
	tb.Helper()
	for _, m := range models.Registry() {
		if m.Role != models.RoleImage {
			continue
		}
		files := Files{}
		for _, f := range m.Files {
			base := path.Base(f.Path)
			switch {
			case strings.HasPrefix(base, "text_model"):
				base = "text_model.onnx"
			case strings.HasPrefix(base, "vision_model"):
				base = "vision_model.onnx"
			}
			files[f.Path] = filepath.Join(CLIPDir(), base)
		}
		return m.Name, files
	}
	tb.Fatal("modelstest: the registry has no text-to-image model")
	return "", nil
}

// InstallCLIP installs the tiny CLIP of CLIPDir under root as the
// registry's text-to-image model, through the downloader.
func InstallCLIP(tb testing.TB, root string) models.Model {
	tb.Helper()
	name, files := CLIPFiles(tb)
	return InstallFiles(tb, root, name, files)
}
