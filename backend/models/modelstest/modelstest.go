// Package modelstest installs registry models from local fixtures the way
// `vika models download` installs them from Hugging Face: a local server
// answers on the model's Hugging Face paths, and the real downloader fetches
// from it. The tests use the tiny seeded models of testdata/bert.
package modelstest

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"vika/backend/models"
)

// Serve starts a server (closed at the test's end) that holds the file onnx
// as every .onnx file of m and the file tokenizer as its other files.
func Serve(tb testing.TB, m models.Model, onnx, tokenizer string) *httptest.Server {
	tb.Helper()
	files := map[string][]byte{}
	for _, f := range m.Files {
		src := tokenizer
		if strings.HasSuffix(f.Path, ".onnx") {
			src = onnx
		}
		raw, err := os.ReadFile(src)
		if err != nil {
			tb.Fatal(err)
		}
		files["/"+m.Repo+"/resolve/"+m.Revision+"/"+f.Path] = raw
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

// Install installs the registry model name under root from the fixtures
// onnx and tokenizer, through the downloader (trusting the first download:
// the registry's hashes are unpinned), and returns the model.
func Install(tb testing.TB, root, name, onnx, tokenizer string) models.Model {
	tb.Helper()
	m, err := models.Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	srv := Serve(tb, m, onnx, tokenizer)
	d := &models.Downloader{BaseURL: srv.URL, Root: root, TrustOnFirstDownload: m.SHA256Status != models.Pinned}
	if err := d.Download(context.Background(), m); err != nil {
		tb.Fatal(err)
	}
	return m
}
