package sandbox

import (
	"slices"
	"testing"
)

// TestWorkerEnvWindowsNames: Windows spells its variables in mixed case
// (Path, SystemRoot) and the C libraries need its temporary and system
// directories; the list keeps those, and still no key or bus.
func TestWorkerEnvWindowsNames(t *testing.T) {
	got := workerEnv([]string{
		`Path=C:\Windows\system32`, `SystemRoot=C:\Windows`, `TEMP=C:\Users\s\AppData\Local\Temp`,
		`LOCALAPPDATA=C:\Users\s\AppData\Local`, "GEMINI_API_KEY=AIzaFAKE", "gemini_api_key=AIzaFAKE",
		"DBUS_SESSION_BUS_ADDRESS=unix:path=/run/bus",
	}, "MALLOC_ARENA_MAX=2")
	want := []string{
		`Path=C:\Windows\system32`, `SystemRoot=C:\Windows`, `TEMP=C:\Users\s\AppData\Local\Temp`,
		`LOCALAPPDATA=C:\Users\s\AppData\Local`, "MALLOC_ARENA_MAX=2",
	}
	if !slices.Equal(got, want) {
		t.Errorf("workerEnv =\n%q\nwant\n%q", got, want)
	}
}
