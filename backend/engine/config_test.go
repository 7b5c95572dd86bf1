package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"vika/backend/ocr"
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
	for _, k := range []string{ocr.EnvWorkers, ocr.EnvTimeout, ocr.EnvLanguages} {
		t.Setenv(k, "")
	}
	t.Setenv("VIKA_SOFFICE", "off")
	def, err := ConfigFromEnv(nil)
	want := Config{MaxFileBytes: DefaultMaxFileBytes, MaxPages: DefaultMaxPages, PageTimeout: DefaultPageTimeout,
		OCRTimeout: DefaultOCRTimeout, WorkerMemory: DefaultWorkerMemory, WorkerCPU: 10 * time.Minute,
		DocTime: 30 * time.Minute, DocCPU: time.Hour, MaxOCRPages: 500, Office: "off"}
	if err != nil || !cmp.Equal(def, want) || !cmp.Equal(DefaultConfig(), want) {
		t.Errorf("defaults %+v, %v; DefaultConfig %+v", def, err, DefaultConfig())
	}
}

// TestOCRSettingsReadOnce: the VIKA_OCR_* settings are read with the
// others, a bad one reported by name (all of them then take their
// defaults, as the workers' OCR would refuse it); the engine fingerprints
// its pipeline with the languages it was opened with, not with the
// environment of each add.
func TestOCRSettingsReadOnce(t *testing.T) {
	cfg, err := ConfigFromEnv(func(k string) string {
		return map[string]string{"VIKA_OCR_WORKERS": "many", "VIKA_OCR_LANGUAGES": "eng"}[k]
	})
	if err == nil || !strings.Contains(err.Error(), "VIKA_OCR_WORKERS") {
		t.Errorf("error %v: want VIKA_OCR_WORKERS named", err)
	}
	if cfg.OCR.Workers != 0 || len(cfg.OCR.Languages) != 0 {
		t.Errorf("a bad OCR setting left %+v, want the defaults", cfg.OCR)
	}
	cfg, err = ConfigFromEnv(func(k string) string {
		return map[string]string{"VIKA_OCR_WORKERS": "1", "VIKA_OCR_LANGUAGES": "eng"}[k]
	})
	if err != nil || cfg.OCR.Workers != 1 || !cmp.Equal(cfg.OCR.Languages, []string{"eng"}) {
		t.Fatalf("OCR settings %+v, %v", cfg.OCR, err)
	}

	t.Setenv(ocr.EnvLanguages, "")
	eng := newEngine(t, cfg)
	both := newEngine(t, Config{OCR: ocr.Config{Languages: []string{"fra", "eng"}}})
	before := eng.Setup()
	if before == both.Setup() {
		t.Error("English OCR and French+English OCR share a fingerprint")
	}
	t.Setenv(ocr.EnvLanguages, "fra+eng")
	if eng.Setup() != before {
		t.Error("the fingerprint follows the environment after the engine opened")
	}
}
