package cli

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/models"
	"vika/backend/models/modelstest"
)

// serveReranker serves the tiny cross-encoder of package embed's fixtures
// under the Hugging Face paths of the registry's cross-encoder, pinned to
// the fixtures for the test (modelstest.Pin).
func serveReranker(t *testing.T) (models.Model, *httptest.Server) {
	t.Helper()
	const fixtures = "../../testdata/bert"
	onnx, tok := filepath.Join(fixtures, "cross_encoder.onnx"), filepath.Join(fixtures, "tokenizer.json")
	m := modelstest.Pin(t, models.Rerankers()[0].Name, onnx, tok)
	return m, modelstest.Serve(t, m, onnx, tok)
}

func runModelsCmd(args ...string) (string, string, error) {
	var out, errOut bytes.Buffer
	err := runModels(context.Background(), args, &out, &errOut)
	return out.String(), errOut.String(), err
}

func TestModelsListAndDownload(t *testing.T) {
	t.Setenv("VIKA_DATA_DIR", t.TempDir())
	m, srv := serveReranker(t)
	t.Setenv("VIKA_MODELS_BASE_URL", srv.URL)

	out, _, err := runModelsCmd("list")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"bge-small-en-v1.5", "multilingual-e5-small", "all-MiniLM-L6-v2", "paraphrase-multilingual-MiniLM-L12-v2", "ms-marco-MiniLM-L-6-v2", "apache-2.0", "VARIANT", "INSTALLED"} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}

	out, errOut, err := runModelsCmd("download", m.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Installed "+m.Name) || !strings.Contains(errOut, "(100%)") {
		t.Errorf("download output:\n%s\nprogress:\n%s", out, errOut)
	}
	out, _, _ = runModelsCmd("list")
	line := lineOf(out, m.Name)
	if !strings.HasSuffix(strings.TrimSpace(line), "yes") {
		t.Errorf("after download: %q", line)
	}
}

// TestModelsDownloadRefusesOtherBytes: a server holding bytes other than
// the pinned ones (here the registry's real pins against the tiny
// fixtures) is refused with the size error and nothing is installed.
func TestModelsDownloadRefusesOtherBytes(t *testing.T) {
	t.Setenv("VIKA_DATA_DIR", t.TempDir())
	m := models.Rerankers()[0] // the real pins
	const fixtures = "../../testdata/bert"
	srv := modelstest.Serve(t, m, filepath.Join(fixtures, "cross_encoder.onnx"), filepath.Join(fixtures, "tokenizer.json"))
	t.Setenv("VIKA_MODELS_BASE_URL", srv.URL)
	_, _, err := runModelsCmd("download", m.Name)
	if !errors.Is(err, models.ErrSize) || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("err = %v, want ErrSize", err)
	}
	out, _, _ := runModelsCmd("list")
	if line := lineOf(out, m.Name); !strings.HasSuffix(strings.TrimSpace(line), "no") {
		t.Errorf("after the refusal: %q", line)
	}
}

func lineOf(s, prefix string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

func TestModelsDownloadOffline(t *testing.T) {
	t.Setenv("VIKA_DATA_DIR", t.TempDir())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	t.Setenv("VIKA_MODELS_BASE_URL", "http://"+ln.Addr().String())
	_, _, err = runModelsCmd("download", "all-MiniLM-L6-v2")
	if !errors.Is(err, models.ErrOffline) || !strings.Contains(err.Error(), "you are offline; the default model USE-lite keeps working") {
		t.Errorf("offline: %v", err)
	}
}

func TestModelsUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"frobnicate"}, {"list", "x"}, {"download"}, {"download", "a", "b"}} {
		if _, _, err := runModelsCmd(args...); !errors.Is(err, errUsage) {
			t.Errorf("models %q: %v, want a usage error", args, err)
		}
	}
	if _, _, err := runModelsCmd("download", "gpt-17"); !errors.Is(err, models.ErrUnknown) {
		t.Errorf("unknown model: %v", err)
	}
	if _, errOut, err := runModelsCmd("--help"); err != nil || strings.Contains(errOut, "trust") || !strings.Contains(errOut, "refused") {
		t.Errorf("help: %v\n%s", err, errOut)
	}
	// The flag of the old trust-on-first-download path is gone.
	if _, _, err := runModelsCmd("download", "--trust-on-first-download", "all-MiniLM-L6-v2"); !errors.Is(err, errUsage) {
		t.Errorf("--trust-on-first-download: %v, want a usage error", err)
	}
}

// TestModelsDownloadCLIP: `vika models list` shows CLIP (role image, its
// int8 export) and `vika models download` installs its four files (the
// tiny CLIP of testdata/clip, pinned for the test) through the downloader.
func TestModelsDownloadCLIP(t *testing.T) {
	t.Setenv("VIKA_DATA_DIR", t.TempDir())
	name, files := modelstest.CLIPFiles(t)
	m := modelstest.PinFiles(t, name, files)
	t.Setenv("VIKA_MODELS_BASE_URL", modelstest.ServeFiles(t, m, files).URL)

	out, _, err := runModelsCmd("list")
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Fields(lineOf(out, name))
	if len(line) < 9 || line[1] != models.RoleImage || line[2] != "en" || line[3] != "512" || line[4] != "77" || line[8] != "int8" {
		t.Errorf("list: %q", lineOf(out, name))
	}
	out, errOut, err := runModelsCmd("download", name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Installed "+name) || strings.Count(errOut, "(100%)") < 4 {
		t.Errorf("download output:\n%s\nprogress:\n%s", out, errOut)
	}
	out, _, _ = runModelsCmd("list")
	if l := lineOf(out, name); !strings.HasSuffix(strings.TrimSpace(l), "yes") {
		t.Errorf("after download: %q", l)
	}
}
