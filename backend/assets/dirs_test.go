package assets

import (
	"strings"
	"testing"
)

func TestDataDirFor(t *testing.T) {
	tests := []struct {
		name, goos string
		env        map[string]string
		home, want string
	}{
		{"linux explicit", "linux", map[string]string{"VIKA_DATA_DIR": "/srv/vika", "XDG_DATA_HOME": "/x"}, "/home/u", "/srv/vika"},
		{"linux xdg", "linux", map[string]string{"XDG_DATA_HOME": "/x"}, "/home/u", "/x/vika"},
		{"linux home", "linux", nil, "/home/u", "/home/u/.local/share/vika"},
		{"linux nothing", "linux", nil, "", ""},
		{"windows local app data", "windows", map[string]string{"LOCALAPPDATA": `C:\Users\Ana\AppData\Local`, "XDG_DATA_HOME": "/x"},
			`C:\Users\Ana`, `C:\Users\Ana\AppData\Local\Vika`},
		{"windows trailing backslash", "windows", map[string]string{"LOCALAPPDATA": `C:\Users\Ana\AppData\Local\`}, "", `C:\Users\Ana\AppData\Local\Vika`},
		{"windows relative LOCALAPPDATA ignored", "windows", map[string]string{"LOCALAPPDATA": `AppData`}, `C:\Users\Ana`, `C:\Users\Ana\AppData\Local\Vika`},
		{"windows explicit", "windows", map[string]string{"VIKA_DATA_DIR": `E:\vika`, "LOCALAPPDATA": `C:\L`}, "", `E:\vika`},
		{"windows nothing", "windows", nil, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := dataDirFor(tt.goos, func(k string) string { return tt.env[k] }, tt.home)
			if got != tt.want {
				t.Errorf("dataDirFor = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPlatformFor(t *testing.T) {
	for _, tt := range []struct{ goos, goarch, want string }{
		{"linux", "amd64", "linux-x64"},
		{"linux", "arm64", "linux-arm64"},
		{"windows", "amd64", "win-x64"},
		{"darwin", "arm64", "darwin-arm64"},
		{"linux", "riscv64", "linux-riscv64"},
	} {
		if got := platformFor(tt.goos, tt.goarch); got != tt.want {
			t.Errorf("platformFor(%s, %s) = %q, want %q", tt.goos, tt.goarch, got, tt.want)
		}
	}
}

// TestWindowsManifest: the installer needs each runtime asset for win-x64,
// plus the Tesseract data, the WebView2 bootstrapper and the models of the
// box, each pinned with where it comes from.
func TestWindowsManifest(t *testing.T) {
	want := map[Kind]bool{ORT: true, USELiteModel: true, USELiteVocab: true,
		"tessdata-eng": true, "tessdata-fra": true, "webview2-bootstrapper": true}
	for _, e := range manifest {
		if e.Platform != "win-x64" && e.Platform != "any" {
			continue
		}
		if !want[e.Kind] && e.Kind != BoxModel {
			t.Errorf("unexpected win-x64 entry %+v", e)
			continue
		}
		delete(want, e.Kind)
		if e.PyPI != "" && (len(e.WheelSHA256) != 64 || !strings.Contains(e.PyPI, "==")) {
			t.Errorf("PyPI entry %+v: want name==version and the wheel's sha256", e)
		}
		if e.Maven != "" && (len(e.JarSHA256) != 64 || strings.Count(e.Maven, ":") != 2) {
			t.Errorf("Maven entry %+v: want group:artifact:version and the jar's sha256", e)
		}
		sources := 0
		for _, s := range []string{e.NPM, e.Deb, e.GoMod, e.PyPI, e.Maven} {
			if s != "" {
				sources++
			}
		}
		if len(e.SHA256) != 64 || e.Size <= 0 || sources != 1 || e.Member == "" || e.Path == "" {
			t.Errorf("bad win-x64 entry %+v", e)
		}
	}
	for k := range want {
		t.Errorf("manifest has no %s for win-x64", k)
	}
}
