// Package sharedtest lets tests use the evaluation data kept beside the
// repository in ../shared/data (real PDFs, BEIR SciFact), which is not part
// of it. Without the data a test is skipped, saying which file is missing;
// `make test` checks the data first (scripts/setup/shared-data.sh) and sets
// VIKA_REQUIRE_SHARED_DATA=1, which turns a missing file into a failure, so
// the quality tests cannot pass by skipping in CI.
//
// Every path a test asks for must be listed in testdata/shared-data.txt,
// the list the script checks; a path that is not listed fails the test.
package sharedtest

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"vika/backend/config"
)

// RequireEnv is the variable that makes a missing file a failure.
var RequireEnv = config.RequireSharedData.Name

// root is the repository root (this file is backend/sharedtest/sharedtest.go).
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Dir is where the shared data is looked for: ../shared/data beside the
// repository root.
func Dir() string { return filepath.Clean(filepath.Join(root(), "..", "shared", "data")) }

// dataDir is Dir, replaced by this package's own tests.
var dataDir = Dir

var manifest struct {
	once  sync.Once
	paths []string
	err   error
}

// Manifest returns the paths under Dir listed in testdata/shared-data.txt.
func Manifest() ([]string, error) {
	manifest.once.Do(func() {
		manifest.paths, manifest.err = readManifest(filepath.Join(root(), "testdata", "shared-data.txt"))
	})
	return manifest.paths, manifest.err
}

func readManifest(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		_, p, ok := strings.Cut(line, "  ")
		if !ok || p == "" {
			return nil, fmt.Errorf("%s:%d: want \"sha256  path\", got %q", path, n, line)
		}
		out = append(out, p)
	}
	return out, sc.Err()
}

// Require returns the path of rel under Dir: a listed file, or a folder
// whose listed files are all checked. A missing or empty file skips the
// test, or fails it under VIKA_REQUIRE_SHARED_DATA=1; a path not listed in
// testdata/shared-data.txt always fails it.
func Require(tb testing.TB, rel string) string {
	tb.Helper()
	paths, err := Manifest()
	if err != nil {
		tb.Fatalf("shared data list: %v", err)
	}
	rel = filepath.ToSlash(filepath.Clean(rel))
	var want []string
	for _, p := range paths {
		if p == rel || strings.HasPrefix(p, rel+"/") {
			want = append(want, p)
		}
	}
	if len(want) == 0 {
		tb.Fatalf("%s is not listed in testdata/shared-data.txt: add it (with its sha256) so that make test checks it", rel)
	}
	for _, p := range want {
		full := filepath.Join(dataDir(), filepath.FromSlash(p))
		st, err := os.Stat(full)
		if err == nil && st.Size() == 0 {
			err = fmt.Errorf("%s is empty", full)
		}
		if err != nil {
			missing(tb, full, err)
		}
	}
	return filepath.Join(dataDir(), filepath.FromSlash(rel))
}

// Required reports whether a missing file fails the tests.
func Required() bool { return config.RequireSharedData.Get(nil) == "1" }

func missing(tb testing.TB, path string, err error) {
	tb.Helper()
	if Required() {
		tb.Fatalf("shared data missing: %s (%v); %s=1 requires ../shared/data beside the repository (make test sets it; VIKA_NO_SHARED_DATA=1 make test runs without it)", path, err, RequireEnv)
	}
	tb.Skipf("skipping: shared data missing: %s (%v); it lives in ../shared/data beside the repository, outside it", path, err)
}
