package engine

import (
	"strings"
	"testing"
	"time"
)

// TestConfigFromEnv: set limits are read, a bad one takes its default and
// is reported by name, and DefaultConfig is the same configuration.
func TestConfigFromEnv(t *testing.T) {
	env := map[string]string{"VIKA_MAX_PAGES": "12", "VIKA_PAGE_TIMEOUT_S": "soon", "VIKA_WORKER_MEMORY_MB": "-3", "VIKA_REGIONS": "off"}
	cfg, err := ConfigFromEnv(func(k string) string { return env[k] })
	if cfg.MaxPages != 12 || cfg.PageTimeout != DefaultPageTimeout || cfg.WorkerMemory != DefaultWorkerMemory || !cfg.NoRegions {
		t.Errorf("config %+v", cfg)
	}
	if err == nil || !strings.Contains(err.Error(), "VIKA_PAGE_TIMEOUT_S") || !strings.Contains(err.Error(), "VIKA_WORKER_MEMORY_MB") {
		t.Errorf("error %v: want both bad variables named", err)
	}
	for k := range env {
		t.Setenv(k, "")
	}
	def, err := ConfigFromEnv(nil)
	want := Config{MaxFileBytes: DefaultMaxFileBytes, MaxPages: DefaultMaxPages, PageTimeout: DefaultPageTimeout,
		OCRTimeout: DefaultOCRTimeout, WorkerMemory: DefaultWorkerMemory, WorkerCPU: 10 * time.Minute,
		DocTime: 30 * time.Minute, DocCPU: time.Hour, MaxOCRPages: 500}
	if err != nil || def != want || DefaultConfig() != want {
		t.Errorf("defaults %+v, %v; DefaultConfig %+v", def, err, DefaultConfig())
	}
}
