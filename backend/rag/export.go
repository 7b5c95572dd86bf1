package rag

import (
	"context"
	"fmt"
	"io"

	"vika/backend/metrics"
)

// ExportMetrics writes the session's metrics as "csv" or "json" (the
// summary and the records), redacted.
func (s *Assistant) ExportMetrics(ctx context.Context, w io.Writer, format string) error {
	v, err := s.Metrics(ctx)
	if err != nil {
		return err
	}
	switch format {
	case "csv":
		return metrics.WriteCSV(w, v.Records)
	case "json":
		return metrics.WriteJSON(w, v.Summary, v.Records)
	}
	return fmt.Errorf("unknown metrics format %q (want csv or json)", format)
}
