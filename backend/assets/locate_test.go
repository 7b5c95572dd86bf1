package assets

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeAssets swaps the manifest for two tiny pinned files and the install
// dirs for one temporary directory, and clears the environment overrides.
// It returns the install dir and the good content of each kind.
func fakeAssets(t *testing.T) (install string, good map[Kind]string) {
	t.Helper()
	good = map[Kind]string{ORT: "fake onnx runtime", USELiteModel: "fake model"}
	saved := manifest
	manifest = nil
	for k, body := range good {
		sum := sha256.Sum256([]byte(body))
		manifest = append(manifest, Entry{Kind: k, Platform: "any", Path: "sub/" + string(k),
			SHA256: hex.EncodeToString(sum[:]), Size: int64(len(body))})
	}
	install = t.TempDir()
	savedDirs := installDirs
	installDirs = func() []string { return []string{install} }
	t.Cleanup(func() { manifest, installDirs = saved, savedDirs })
	t.Setenv("VIKA_DATA_DIR", "")
	t.Setenv("VIKA_ORT_LIB", "")
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", t.TempDir())
	return install, good
}

func put(t *testing.T, dir string, k Kind, body string) string {
	t.Helper()
	path := filepath.Join(dir, "sub", string(k))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPrecedence: environment override > user data dir > install dir, and a
// damaged copy is passed over for an intact one.
func TestPrecedence(t *testing.T) {
	const model = USELiteModel
	t.Run("install dir when the data dir has nothing", func(t *testing.T) {
		install, good := fakeAssets(t)
		want := put(t, install, model, good[model])
		if got, err := Verify(model); err != nil || got != want {
			t.Fatalf("Verify = %q, %v; want %q", got, err, want)
		}
	})
	t.Run("user data dir before install dir", func(t *testing.T) {
		install, good := fakeAssets(t)
		put(t, install, model, good[model])
		want := put(t, Dir(), model, good[model])
		if got, err := Verify(model); err != nil || got != want {
			t.Fatalf("Verify = %q, %v; want %q", got, err, want)
		}
		if !strings.HasPrefix(want, os.Getenv("HOME")) {
			t.Fatalf("data dir %s is not under HOME", want)
		}
	})
	t.Run("damaged user copy passed over", func(t *testing.T) {
		install, good := fakeAssets(t)
		want := put(t, install, model, good[model])
		put(t, Dir(), model, "stale")
		if got, err := Verify(model); err != nil || got != want {
			t.Fatalf("Verify = %q, %v; want %q", got, err, want)
		}
	})
	t.Run("every copy damaged", func(t *testing.T) {
		install, _ := fakeAssets(t)
		put(t, install, model, "stale too")
		first := put(t, Dir(), model, "stale")
		_, err := Verify(model)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), first+" is corrupt") {
			t.Fatalf("Verify = %v, want ErrCorrupt naming %s", err, first)
		}
	})
	t.Run("VIKA_DATA_DIR is the only place searched", func(t *testing.T) {
		install, good := fakeAssets(t)
		put(t, install, model, good[model])
		dir := t.TempDir()
		t.Setenv("VIKA_DATA_DIR", dir)
		if _, err := Verify(model); !errors.Is(err, ErrMissing) {
			t.Fatalf("Verify = %v, want ErrMissing", err)
		}
		want := put(t, dir, model, good[model])
		if got, err := Verify(model); err != nil || got != want {
			t.Fatalf("Verify = %q, %v; want %q", got, err, want)
		}
	})
	t.Run("VIKA_ORT_LIB first", func(t *testing.T) {
		install, good := fakeAssets(t)
		put(t, install, ORT, good[ORT])
		lib := filepath.Join(t.TempDir(), "libonnxruntime.so.1")
		if err := os.WriteFile(lib, []byte("any library"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv("VIKA_ORT_LIB", lib)
		if got, err := Verify(ORT); err != nil || got != lib {
			t.Fatalf("Verify(ORT) = %q, %v; want %q", got, err, lib)
		}
	})
	t.Run("missing everywhere", func(t *testing.T) {
		install, _ := fakeAssets(t)
		_, err := Verify(model)
		if !errors.Is(err, ErrMissing) {
			t.Fatalf("Verify = %v, want ErrMissing", err)
		}
		for _, want := range []string{filepath.Join(Dir(), "sub", string(model)), filepath.Join(install, "sub", string(model)),
			"run `make assets`", "reinstall the vika package"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q\nlacks %q", err, want)
			}
		}
	})
}

func TestCandidates(t *testing.T) {
	install, _ := fakeAssets(t)
	got, err := Candidates(USELiteModel)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(Dir(), "sub", "use-lite-model"), filepath.Join(install, "sub", "use-lite-model")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Candidates (-want +got):\n%s", diff)
	}
}

func TestInstallDirsFor(t *testing.T) {
	for _, tt := range []struct {
		goos, exe string
		want      []string
	}{
		{"linux", "/usr/bin/vika", []string{"/usr/lib/vika"}},
		{"linux", "/opt/vika/bin/vika", []string{"/opt/vika/lib/vika", "/usr/lib/vika"}},
		{"linux", "/home/u/src/bin/vika", []string{"/home/u/src/lib/vika", "/usr/lib/vika"}},
		// Windows: everything beside vika.exe, where the installer puts it.
		{"windows", `C:\Users\Ana\AppData\Local\Programs\Vika\vika.exe`, []string{`C:\Users\Ana\AppData\Local\Programs\Vika`}},
		{"windows", `D:\vika.exe`, []string{`D:\`}},
		{"windows", `\\server\apps\Vika\vika.exe`, []string{`\\server\apps\Vika`}},
	} {
		if diff := cmp.Diff(tt.want, installDirsFor(tt.goos, tt.exe)); diff != "" {
			t.Errorf("installDirsFor(%s, %s) (-want +got):\n%s", tt.goos, tt.exe, diff)
		}
	}
}

func TestReport(t *testing.T) {
	install, good := fakeAssets(t)
	put(t, install, ORT, good[ORT])
	got := map[Kind]Status{}
	for _, s := range Report() {
		got[s.Kind] = s
	}
	if s := got[ORT]; s.Err != nil || s.Path != filepath.Join(install, "sub", string(ORT)) {
		t.Errorf("Report()[ORT] = %+v", s)
	}
	if s := got[USELiteModel]; !errors.Is(s.Err, ErrMissing) || s.Path != "" {
		t.Errorf("Report()[model] = %+v, want ErrMissing", s)
	}
}
