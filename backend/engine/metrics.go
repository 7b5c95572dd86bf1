package engine

import (
	"context"

	"vika/backend/metrics"
)

// AddMetric stores the metrics record of one answered question in the
// session (see store.Store.AddMetric: redacted, the next query index when
// QueryIndex is 0) and returns it as stored.
func (e *Engine) AddMetric(ctx context.Context, rec metrics.Record) (metrics.Record, error) {
	if e.isClosed() {
		return rec, ErrClosed
	}
	return e.store.AddMetric(ctx, rec)
}

// Metrics returns the session's metrics records in question order (an
// empty, non-nil slice when there is none).
func (e *Engine) Metrics(ctx context.Context) ([]metrics.Record, error) {
	if e.isClosed() {
		return []metrics.Record{}, ErrClosed
	}
	recs, err := e.store.Metrics(ctx)
	if recs == nil {
		recs = []metrics.Record{}
	}
	return recs, err
}
