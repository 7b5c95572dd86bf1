package main

import (
	"bytes"

	"vika/backend/rag"
)

// The metrics page API (frontend/src/lib/api/metrics.ts).

// Metrics returns the session's metrics records and their summary.
func (a *App) Metrics() (rag.MetricsView, error) { return a.s.Metrics(a.ctx) }

// ExportMetrics saves the metrics as "csv" or "json" where the user picks;
// it returns the path, "" when the user cancelled.
func (a *App) ExportMetrics(format string) (string, error) {
	var b bytes.Buffer
	if err := a.s.ExportMetrics(a.ctx, &b, format); err != nil {
		return "", err
	}
	return a.save("Export metrics", "vika-metrics."+format, format, b.Bytes())
}
