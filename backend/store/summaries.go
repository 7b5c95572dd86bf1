package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"vika/backend/corpus"
)

// summariesSchema keeps the summaries a model wrote of a document's
// passages (the summary index): one row a passage, the summary or the
// refusal of the last one not kept. It goes with its document.
const summariesSchema = `
CREATE TABLE summaries (
	chunk_id TEXT PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
	doc_id   TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
	text     TEXT NOT NULL, -- '' while only a refusal is kept
	refusal  TEXT           -- JSON corpus.Refusal: the last summary refused, NULL when none
);
CREATE INDEX summaries_doc ON summaries(doc_id);
`

// Summary is what the store keeps of one passage's summary: its text
// ("" when none was kept) and the refusal of the last one that was not.
type Summary struct {
	ChunkID string          `json:"chunk_id"`
	DocID   string          `json:"doc_id"`
	Text    string          `json:"text"`
	Refusal *corpus.Refusal `json:"refusal,omitempty"`
}

// SetSummary keeps a model's summary of a passage and forgets any refusal
// before it. corpus.ErrNotFound when the passage is not in the store.
func (s *Store) SetSummary(ctx context.Context, docID, chunkID, text string) error {
	return s.putSummary(ctx, docID, chunkID, `INSERT INTO summaries (chunk_id, doc_id, text, refusal) VALUES (?, ?, ?, NULL)
		ON CONFLICT(chunk_id) DO UPDATE SET text = excluded.text, refusal = NULL`, text)
}

// SetSummaryRefusal keeps why a model's summary of a passage was not
// kept, and which model wrote it (a summary kept before stays).
func (s *Store) SetSummaryRefusal(ctx context.Context, docID, chunkID string, r corpus.Refusal) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return s.putSummary(ctx, docID, chunkID, `INSERT INTO summaries (chunk_id, doc_id, text, refusal) VALUES (?, ?, '', ?)
		ON CONFLICT(chunk_id) DO UPDATE SET refusal = excluded.refusal`, string(b))
}

func (s *Store) putSummary(ctx context.Context, docID, chunkID, q string, arg string) error {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM chunks WHERE id = ? AND doc_id = ?`, chunkID, docID).Scan(&n); err != nil {
		return fmt.Errorf("keep a summary: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("%w: no passage %s in document %s", corpus.ErrNotFound, chunkID, docID)
	}
	if _, err := s.db.ExecContext(ctx, q, chunkID, docID, arg); err != nil {
		return fmt.Errorf("keep a summary: %w", err)
	}
	return nil
}

// Summaries returns what is kept of the summaries of a document's
// passages (every document's when docID is ""), in passage order.
func (s *Store) Summaries(ctx context.Context, docID string) ([]Summary, error) {
	q := `SELECT s.chunk_id, s.doc_id, s.text, s.refusal FROM summaries s JOIN chunks c ON c.id = s.chunk_id`
	var args []any
	if docID != "" {
		q += ` WHERE s.doc_id = ?`
		args = append(args, docID)
	}
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY c.doc_id, c.ord`, args...)
	if err != nil {
		return nil, fmt.Errorf("read summaries: %w", err)
	}
	defer rows.Close()
	var out []Summary
	for rows.Next() {
		var (
			sm      Summary
			refusal sql.NullString
		)
		if err := rows.Scan(&sm.ChunkID, &sm.DocID, &sm.Text, &refusal); err != nil {
			return nil, fmt.Errorf("read summaries: %w", err)
		}
		if refusal.Valid {
			var r corpus.Refusal
			if err := json.Unmarshal([]byte(refusal.String), &r); err != nil {
				return nil, fmt.Errorf("read summaries: refusal of %s: %w", sm.ChunkID, err)
			}
			sm.Refusal = &r
		}
		out = append(out, sm)
	}
	return out, rows.Err()
}
