package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"vika/backend/corpus"
)

// filesSchema keeps each document's original bytes, for the viewer. They
// live in the same in-memory database as the rest of the session and are
// deleted with their document.
const filesSchema = `
CREATE TABLE files (
	doc_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
	data   BLOB NOT NULL
) WITHOUT ROWID;
`

// PutFile keeps the original bytes of a document already in the store.
func (s *Store) PutFile(ctx context.Context, docID string, data []byte) error {
	if _, err := s.db.ExecContext(ctx, `INSERT OR REPLACE INTO files (doc_id, data) VALUES (?, ?)`, docID, data); err != nil {
		return fmt.Errorf("keep the bytes of the document: %w", err)
	}
	return nil
}

// File returns the original bytes of a document, or corpus.ErrNotFound.
func (s *Store) File(ctx context.Context, docID string) ([]byte, error) {
	var data []byte
	err := s.db.QueryRowContext(ctx, `SELECT data FROM files WHERE doc_id = ?`, docID).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %s", corpus.ErrNotFound, docID)
	}
	if err != nil {
		return nil, fmt.Errorf("read the bytes of the document: %w", err)
	}
	return data, nil
}
