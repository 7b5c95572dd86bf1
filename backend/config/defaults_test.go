package config_test

import (
	"strconv"
	"testing"
	"time"

	"vika/backend/config"
	"vika/backend/engine"
	"vika/backend/ingest"
	"vika/backend/llm"
	"vika/backend/models"
	"vika/backend/ocr"
	"vika/backend/prompt"
)

// TestDefaultsMatchTheCode: the defaults the table states are those the
// code applies when a variable is unset.
func TestDefaultsMatchTheCode(t *testing.T) {
	secs := func(d time.Duration) string { return strconv.Itoa(int(d / time.Second)) }
	num := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	for _, c := range []struct {
		v    config.Var
		code string
	}{
		{config.MaxFileMB, strconv.Itoa(engine.DefaultMaxFileBytes >> 20)},
		{config.MaxPages, strconv.Itoa(engine.DefaultMaxPages)},
		{config.PageTimeoutS, secs(engine.DefaultPageTimeout)},
		{config.OCRPageTimeout, secs(engine.DefaultOCRTimeout)},
		{config.WorkerMemoryMB, strconv.Itoa(int(engine.DefaultWorkerMemory >> 20))},
		{config.WorkerCPUS, secs(engine.DefaultWorkerCPU)},
		{config.DocTimeMin, strconv.Itoa(int(ingest.DocTime / time.Minute))},
		{config.DocCPUMin, strconv.Itoa(int(ingest.DocCPU / time.Minute))},
		{config.MaxOCRPages, strconv.Itoa(ingest.MaxOCRPages)},
		{config.OCRTimeout, secs(ocr.DefaultTimeout) + "s"},
		{config.AbstainMinBM25, num(prompt.DefaultMinBM25)},
		{config.RouteLLMThresh, num(llm.DefaultThreshold)},
		{config.ModelsBaseURL, models.DefaultBaseURL},
	} {
		if c.v.Default != c.code {
			t.Errorf("%s: the table says %q, the code applies %q", c.v.Name, c.v.Default, c.code)
		}
	}
	cat, err := llm.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range cat.Providers {
		v, ok := config.Lookup(p.BaseURLEnv)
		if !ok || v.Default != p.BaseURL {
			t.Errorf("provider %s: %s declared %v with default %q, the catalogue's is %q", p.ID, p.BaseURLEnv, ok, v.Default, p.BaseURL)
		}
	}
}
