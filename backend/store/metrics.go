package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"vika/backend/metrics"
)

// ErrMetricExists is returned by AddMetric for a query index already
// recorded.
var ErrMetricExists = errors.New("a metrics record with that query index is already in the session")

// metricsSchema is created by Open with the rest of the schema. A record
// is kept whole as JSON; the columns beside it are what queries sort and
// aggregate on.
const metricsSchema = `
CREATE TABLE metrics (
	query_index      INTEGER PRIMARY KEY, -- 1-based, in the session
	total_latency_ms REAL    NOT NULL,
	record           TEXT    NOT NULL,    -- JSON of metrics.Record, redacted
	added_at         INTEGER NOT NULL     -- unix milliseconds
);
`

// AddMetric stores the record of one question, redacted (metrics.Redact:
// no key-shaped string is ever stored). A zero QueryIndex takes the next
// index of the session (1 for the first question). It returns the record
// as stored, or ErrMetricExists for an index already recorded.
func (s *Store) AddMetric(ctx context.Context, rec metrics.Record) (stored metrics.Record, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return rec, fmt.Errorf("add metrics: %w", err)
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	rec = rec.Redacted()
	if rec.QueryIndex == 0 {
		if err := tx.QueryRowContext(ctx, `SELECT IFNULL(MAX(query_index), 0) + 1 FROM metrics`).Scan(&rec.QueryIndex); err != nil {
			return rec, fmt.Errorf("add metrics: %w", err)
		}
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM metrics WHERE query_index = ?`, rec.QueryIndex).Scan(&n); err != nil {
		return rec, fmt.Errorf("add metrics: %w", err)
	}
	if n > 0 {
		return rec, fmt.Errorf("%w: %d", ErrMetricExists, rec.QueryIndex)
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return rec, fmt.Errorf("add metrics: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO metrics (query_index, total_latency_ms, record, added_at) VALUES (?, ?, ?, ?)`,
		rec.QueryIndex, rec.TotalLatencyMs, string(data), s.now().UnixMilli()); err != nil {
		return rec, fmt.Errorf("add metrics: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return rec, fmt.Errorf("add metrics: %w", err)
	}
	return rec, nil
}

// Metrics returns the session's records in query order.
func (s *Store) Metrics(ctx context.Context) ([]metrics.Record, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT record FROM metrics ORDER BY query_index`)
	if err != nil {
		return nil, fmt.Errorf("list metrics: %w", err)
	}
	defer rows.Close()
	var out []metrics.Record
	for rows.Next() {
		var data string
		if err := rows.Scan(&data); err != nil {
			return nil, fmt.Errorf("list metrics: %w", err)
		}
		var r metrics.Record
		if err := json.Unmarshal([]byte(data), &r); err != nil {
			return nil, fmt.Errorf("list metrics: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
