package sandbox

import (
	"strings"

	"vika/backend/config"
)

// workerEnvNames are the only variables of the app's environment a worker
// inherits: what the C libraries and the OCR configuration read, and
// nothing else, so that no API key (GEMINI_API_KEY...), session bus
// (DBUS_SESSION_BUS_ADDRESS, hence the keyring), display (DISPLAY,
// WAYLAND_DISPLAY, XAUTHORITY) or proxy setting reaches the process that
// parses hostile bytes.
var workerEnvNames = []string{
	"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE", "TZ",
	"TESSDATA_PREFIX", "OMP_THREAD_LIMIT", "XDG_DATA_HOME",
	"GOMAXPROCS", "GODEBUG", "GOTRACEBACK", "GOCOVERDIR",
	config.DataDir.Name, config.OCRLanguages.Name, config.OCRTimeout.Name, config.OCRWorkers.Name,
	// Windows: the system's own directories, which the C runtime, MuPDF
	// and Tesseract look up (temporary files, the DLL search path).
	"SYSTEMROOT", "WINDIR", "TEMP", "TMP", "USERPROFILE", "LOCALAPPDATA",
}

// workerEnv is environ (os.Environ's form) filtered to workerEnvNames,
// then the worker's own settings. Names are matched regardless of case,
// as Windows reads them (its PATH is "Path"); no two of the list differ
// only in case.
func workerEnv(environ []string, own ...string) []string {
	keep := map[string]bool{}
	for _, n := range workerEnvNames {
		keep[strings.ToUpper(n)] = true
	}
	var out []string
	for _, kv := range environ {
		if name, _, ok := strings.Cut(kv, "="); ok && keep[strings.ToUpper(name)] {
			out = append(out, kv)
		}
	}
	return append(out, own...)
}
