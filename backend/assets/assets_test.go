package assets

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestDir(t *testing.T) {
	tests := []struct {
		name, data, xdg, home, want string
	}{
		{"explicit", "/srv/vika", "/x", "/home/u", "/srv/vika"},
		{"xdg", "", "/x", "/home/u", "/x/vika"},
		{"relative xdg ignored", "", "rel", "/home/u", "/home/u/.local/share/vika"},
		{"home", "", "", "/home/u", "/home/u/.local/share/vika"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("VIKA_DATA_DIR", tt.data)
			t.Setenv("XDG_DATA_HOME", tt.xdg)
			t.Setenv("HOME", tt.home)
			if got := Dir(); got != tt.want {
				t.Errorf("Dir() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestManifest(t *testing.T) {
	hexSum := regexp.MustCompile(`^[0-9a-f]{64}$`)
	for _, plat := range []string{"linux-x64", "linux-arm64"} {
		for _, k := range Kinds {
			found := false
			for _, e := range manifest {
				if e.Kind != k || (e.Platform != "any" && e.Platform != plat) {
					continue
				}
				found = true
				if !hexSum.MatchString(e.SHA256) || e.Size <= 0 || e.NPM == "" || e.Member == "" ||
					filepath.IsAbs(e.Path) || strings.Contains(e.Path, "..") {
					t.Errorf("bad manifest entry %+v", e)
				}
			}
			if !found {
				t.Errorf("manifest has no %s for %s", k, plat)
			}
		}
	}
}

// TestScriptUsesManifest keeps the pinned hashes in one place: the install
// script must read manifest.json and never carry a hash of its own.
func TestScriptUsesManifest(t *testing.T) {
	raw, err := os.ReadFile("../../scripts/setup/assets.sh")
	if err != nil {
		t.Fatal(err)
	}
	script := string(raw)
	if !strings.Contains(script, "backend/assets/manifest.json") {
		t.Error("scripts/setup/assets.sh does not read backend/assets/manifest.json")
	}
	if h := regexp.MustCompile(`[0-9a-f]{64}`).FindString(script); h != "" {
		t.Errorf("scripts/setup/assets.sh pins %s itself; keep hashes in manifest.json", h)
	}
}

func TestVerifyMissing(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("VIKA_DATA_DIR", dir)
	t.Setenv("VIKA_ORT_LIB", "")
	_, err := Verify(ORT)
	if !errors.Is(err, ErrMissing) {
		t.Fatalf("Verify(ORT) = %v, want ErrMissing", err)
	}
	want := "ONNX Runtime library not found at " + filepath.Join(dir, "onnxruntime", "libonnxruntime.so.1") +
		": run `make assets` (or scripts/setup/assets.sh)"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q\nlacks %q", err, want)
	}
	err = Check()
	for _, k := range Kinds {
		if !strings.Contains(err.Error(), describe(k)) {
			t.Errorf("Check() = %v, does not mention %s", err, describe(k))
		}
	}
}

func TestVerifyCorrupt(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("VIKA_DATA_DIR", dir)
	path, _ := Path(USELiteVocab)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`[["x", 0]]`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Verify(USELiteVocab)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Verify = %v, want ErrCorrupt", err)
	}
	e, _ := Lookup(USELiteVocab)
	for _, want := range []string{path + " is corrupt (sha256 ", "!= pinned " + e.SHA256, "delete it and run `make assets`"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q\nlacks %q", err, want)
		}
	}
}

func TestORTOverride(t *testing.T) {
	lib := filepath.Join(t.TempDir(), "libonnxruntime.so")
	t.Setenv("VIKA_ORT_LIB", lib)
	if _, err := Verify(ORT); !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "VIKA_ORT_LIB") {
		t.Fatalf("Verify(ORT) with a missing override = %v", err)
	}
	if err := os.WriteFile(lib, []byte("not checked"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Verify(ORT); err != nil || got != lib {
		t.Fatalf("Verify(ORT) = %q, %v; want %q", got, err, lib)
	}
}

func TestHashCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	sum := func() string {
		t.Helper()
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := FileSHA256(path, info)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if err := os.WriteFile(path, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if got := sum(); got != abc {
		t.Fatalf("sha256(abc) = %s", got)
	}
	// A rewrite changes size and mtime, so the cached value must not be reused.
	if err := os.WriteFile(path, []byte("abcd"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, time.Now(), time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := sum(); got == abc {
		t.Fatal("stale hash returned after the file changed")
	}
}

// TestInstalled verifies the real assets when they are installed. `make test`
// sets VIKA_REQUIRE_ASSETS=1 after running scripts/setup/assets.sh, turning a
// missing asset into a failure instead of a skip.
func TestInstalled(t *testing.T) {
	if err := Check(); err != nil {
		if os.Getenv("VIKA_REQUIRE_ASSETS") == "1" {
			t.Fatal(err)
		}
		t.Skipf("assets not installed: run make assets (%v)", err)
	}
	start := time.Now()
	if err := Check(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 50*time.Millisecond {
		t.Errorf("second Check took %v: hashes are not cached", d)
	}
}
