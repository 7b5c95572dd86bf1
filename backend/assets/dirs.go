package assets

import (
	"path/filepath"
	"strings"
)

// The per-OS rules of Dir, InstallDirs and Platform, written as functions of
// the OS name so the Windows rules are tested on Linux too. Windows paths are
// built with backslashes whatever OS runs the code.

// platformFor is the manifest's platform name: npm's spelling of the OS
// ("linux", "win", "darwin") and of the architecture ("x64", "arm64").
func platformFor(goos, goarch string) string {
	if goos == "windows" {
		goos = "win"
	}
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[goarch]
	if arch == "" {
		arch = goarch
	}
	return goos + "-" + arch
}

// dataDirFor is Dir on goos, with getenv the environment and home the
// user's home directory ("" when unknown); "" when it cannot tell.
// On Windows: %LOCALAPPDATA%\Vika (local, not roaming: the models and the
// index caches are large), else <home>\AppData\Local\Vika.
func dataDirFor(goos string, getenv func(string) string, home string) string {
	if d := getenv("VIKA_DATA_DIR"); d != "" {
		return d
	}
	if goos == "windows" {
		if l := getenv("LOCALAPPDATA"); winAbs(l) {
			return winJoin(l, "Vika")
		}
		if home != "" {
			return winJoin(home, "AppData", "Local", "Vika")
		}
		return ""
	}
	if x := getenv("XDG_DATA_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "vika")
	}
	if home != "" {
		return filepath.Join(home, ".local", "share", "vika")
	}
	return ""
}

// installDirsFor is InstallDirs for the executable exe on goos.
func installDirsFor(goos, exe string) []string {
	if goos == "windows" {
		return []string{winDir(exe)}
	}
	dirs := []string{filepath.Join(filepath.Dir(filepath.Dir(exe)), "lib", "vika")}
	if dirs[0] != SystemDir {
		dirs = append(dirs, SystemDir)
	}
	return dirs
}

// winAbs reports whether p is an absolute Windows path (C:\... or \\server\...).
func winAbs(p string) bool {
	if len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') {
		c := p[0] | 0x20
		return c >= 'a' && c <= 'z'
	}
	return strings.HasPrefix(p, `\\`)
}

// winJoin joins Windows path elements with single backslashes.
func winJoin(elem ...string) string {
	out := strings.TrimRight(elem[0], `\/`)
	for _, e := range elem[1:] {
		out += `\` + strings.Trim(e, `\/`)
	}
	return out
}

// winDir is the directory part of a Windows path (filepath.Dir on Windows).
func winDir(p string) string {
	i := strings.LastIndexAny(p, `\/`)
	switch {
	case i < 0:
		return "."
	case i == 2 && p[1] == ':': // C:\vika.exe -> C:\
		return p[:3]
	}
	return p[:i]
}
