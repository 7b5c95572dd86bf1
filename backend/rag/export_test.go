package rag

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestExportMetrics(t *testing.T) {
	s := New(newEngine(t), nil, Config{})
	if _, err := s.Ask(t.Context(), "What does unit propagation do?", testOptions(), nil); err != nil {
		t.Fatal(err)
	}
	var csv, js bytes.Buffer
	if err := s.ExportMetrics(t.Context(), &csv, "csv"); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(csv.String()), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], "1,What does unit propagation do?,,extractive,bm25,") {
		t.Errorf("csv:\n%s", csv.String())
	}
	if err := s.ExportMetrics(t.Context(), &js, "json"); err != nil {
		t.Fatal(err)
	}
	var v MetricsView
	if err := json.Unmarshal(js.Bytes(), &v); err != nil || len(v.Records) != 1 || v.Summary.Questions != 1 {
		t.Errorf("json: %v\n%s", err, js.String())
	}
	if err := s.ExportMetrics(t.Context(), &js, "xml"); err == nil {
		t.Error("format xml accepted")
	}
}
