// Package modelstest installs registry models from local fixtures the way
// `vika models download` installs them from Hugging Face: a local server
// answers on the model's Hugging Face paths, and the real downloader fetches
// from it and checks every file against its pin. The registry pins the real
// files' hashes, so Pin first re-pins the entry to the fixtures' own hashes
// for the test's duration. The tests use the tiny seeded models of
// testdata/bert.
package modelstest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
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
	m, err := models.Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	m.Files = append([]models.File(nil), m.Files...)
	for i, f := range m.Files {
		raw := read(tb, source(f, onnx, tokenizer))
		sum := sha256.Sum256(raw)
		m.Files[i].SHA256, m.Files[i].Size = hex.EncodeToString(sum[:]), int64(len(raw))
	}
	tb.Cleanup(models.Replace(m))
	return m
}

func source(f models.File, onnx, tokenizer string) string {
	if strings.HasSuffix(f.Path, ".onnx") {
		return onnx
	}
	return tokenizer
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
	files := map[string][]byte{}
	for _, f := range m.Files {
		files[m.URL("", f)] = read(tb, source(f, onnx, tokenizer))
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
	m := Pin(tb, name, onnx, tokenizer)
	srv := Serve(tb, m, onnx, tokenizer)
	d := &models.Downloader{BaseURL: srv.URL, Root: root}
	if err := d.Download(context.Background(), m); err != nil {
		tb.Fatal(err)
	}
	return m
}
