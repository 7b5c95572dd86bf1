//go:build linux

package sandbox

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestWorkerEnvironment: a worker started by an app holding keys, a
// session bus and a display gets none of them; this is its whole
// environment.
func TestWorkerEnvironment(t *testing.T) {
	for k, v := range map[string]string{
		"GEMINI_API_KEY": "AIzaSyFAKE", "GROQ_API_KEY": "gsk_FAKE", "MISTRAL_API_KEY": "m", "OPENROUTER_API_KEY": "sk-or-FAKE",
		"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/0/bus", "DISPLAY": ":99", "WAYLAND_DISPLAY": "wayland-0",
		"XAUTHORITY": "/root/.Xauthority", "HTTPS_PROXY": "http://proxy:3128", "SSH_AUTH_SOCK": "/tmp/agent",
		"VIKA_GEMINI_BASE_URL": "http://127.0.0.1:1", "HOME": "/home/student", "LANG": "fr_FR.UTF-8", "VIKA_OCR_LANGUAGES": "eng",
	} {
		t.Setenv(k, v)
	}
	p, err := startProc(Config{}.withDefaults(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer p.kill()
	// /proc/PID/environ reads empty until the new image is set up and once
	// the process has exited; under load the first read can come early.
	var raw []byte
	for deadline := time.Now().Add(5 * time.Second); len(raw) == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if raw, err = os.ReadFile("/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/environ"); err != nil {
			t.Fatalf("the worker's environment cannot be read from /proc: %v", err)
		}
	}
	if len(raw) == 0 {
		t.Fatal("the worker's /proc environ stayed empty for 5 s (it exited, or never started)")
	}
	var names []string
	vals := map[string]string{}
	for _, kv := range strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00") {
		name, v, _ := strings.Cut(kv, "=")
		names = append(names, name)
		vals[name] = v
	}
	slices.Sort(names)
	for _, n := range names {
		if !slices.Contains(workerEnvNames, n) && !strings.HasPrefix(n, "VIKA_SANDBOX_") && n != "MALLOC_ARENA_MAX" {
			t.Errorf("the worker inherited %s", n)
		}
	}
	for _, n := range []string{"VIKA_SANDBOX_WORKER", "VIKA_SANDBOX_MEMORY", "VIKA_SANDBOX_CPU", "MALLOC_ARENA_MAX", "HOME", "LANG", "VIKA_OCR_LANGUAGES"} {
		if !slices.Contains(names, n) {
			t.Errorf("the worker lacks %s", n)
		}
	}
	if vals["HOME"] != "/home/student" || vals["VIKA_OCR_LANGUAGES"] != "eng" {
		t.Errorf("HOME=%q VIKA_OCR_LANGUAGES=%q", vals["HOME"], vals["VIKA_OCR_LANGUAGES"])
	}
	t.Logf("the worker's environment: %s", strings.Join(names, " "))
}
