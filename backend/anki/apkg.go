package anki

import (
	"archive/zip"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"vika/backend/atomicfile"
	"vika/backend/dbfile"
)

// schema is the legacy collection (schema 11) that every Anki since 2.0
// imports from an .apkg: the col row holds the note types, decks and
// options as JSON; notes hold the fields joined by 0x1f; cards are new.
const schema = `
CREATE TABLE col (id integer primary key, crt integer not null, mod integer not null, scm integer not null,
  ver integer not null, dty integer not null, usn integer not null, ls integer not null, conf text not null,
  models text not null, decks text not null, dconf text not null, tags text not null);
CREATE TABLE notes (id integer primary key, guid text not null, mid integer not null, mod integer not null,
  usn integer not null, tags text not null, flds text not null, sfld integer not null, csum integer not null,
  flags integer not null, data text not null);
CREATE TABLE cards (id integer primary key, nid integer not null, did integer not null, ord integer not null,
  mod integer not null, usn integer not null, type integer not null, queue integer not null, due integer not null,
  ivl integer not null, factor integer not null, reps integer not null, lapses integer not null, left integer not null,
  odue integer not null, odid integer not null, flags integer not null, data text not null);
CREATE TABLE revlog (id integer primary key, cid integer not null, usn integer not null, ease integer not null,
  ivl integer not null, lastIvl integer not null, factor integer not null, time integer not null, type integer not null);
CREATE TABLE graves (usn integer not null, oid integer not null, type integer not null);
CREATE INDEX ix_notes_usn on notes (usn);
CREATE INDEX ix_cards_usn on cards (usn);
CREATE INDEX ix_revlog_usn on revlog (usn);
CREATE INDEX ix_cards_nid on cards (nid);
CREATE INDEX ix_cards_sched on cards (did, queue, due);
CREATE INDEX ix_revlog_cid on revlog (cid);
CREATE INDEX ix_notes_csum on notes (csum);
`

// WriteAPKG writes d as an Anki package at path, atomically: the old file
// stays whole if anything fails.
func WriteAPKG(ctx context.Context, path string, d Deck) error {
	if err := d.check(); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "vika-apkg-*")
	if err != nil {
		return fmt.Errorf("anki package: %w", err)
	}
	defer os.RemoveAll(dir)
	col := filepath.Join(dir, "collection.anki2")
	if err := writeCollection(ctx, col, d); err != nil {
		return fmt.Errorf("anki package: %w", err)
	}
	data, err := zipPackage(col)
	if err != nil {
		return fmt.Errorf("anki package: %w", err)
	}
	return atomicfile.WriteFile(path, data, 0o644)
}

// zipPackage is the .apkg: the collection and an empty media map.
func zipPackage(col string) ([]byte, error) {
	db, err := os.ReadFile(col)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range []struct {
		name string
		data []byte
	}{{"collection.anki2", db}, {"media", []byte("{}")}} {
		w, err := zw.Create(f.name)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func writeCollection(ctx context.Context, path string, d Deck) error {
	db, err := sql.Open("sqlite", dbfile.URI(path, "_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)"))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return err
	}
	if err := insertCol(ctx, tx, d); err != nil {
		return err
	}
	if err := insertNotes(ctx, tx, d); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return db.Close()
}

func insertCol(ctx context.Context, tx *sql.Tx, d Deck) error {
	t := d.created()
	secs, ms, did := t.Unix(), t.UnixMilli(), deckID(d.Name)
	models, err := modelsJSON(did, secs)
	if err != nil {
		return err
	}
	decks, err := decksJSON(did, d.Name, secs)
	if err != nil {
		return err
	}
	dconf, err := dconfJSON(secs)
	if err != nil {
		return err
	}
	conf, err := confJSON(did)
	if err != nil {
		return err
	}
	crt := time.Date(t.Year(), t.Month(), t.Day(), 4, 0, 0, 0, t.Location()).Unix() // Anki's day starts at 4 am
	_, err = tx.ExecContext(ctx, `INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, '{}')`,
		crt, ms, ms, string(conf), string(models), string(decks), string(dconf))
	return err
}

// insertNotes writes one note and one new card per Note, in order (the
// card's due is its position among the new cards).
func insertNotes(ctx context.Context, tx *sql.Tx, d Deck) error {
	t := d.created()
	secs, base, did := t.Unix(), t.UnixMilli(), deckID(d.Name)
	for i, n := range d.Notes {
		front, back := field(n.Front), field(n.Back)
		tags := ""
		if ts := tagsOf(d, n); len(ts) > 0 {
			tags = " " + strings.Join(ts, " ") + " "
		}
		nid, cid := base+int64(i), base+int64(len(d.Notes))+int64(i)
		if _, err := tx.ExecContext(ctx, `INSERT INTO notes VALUES (?, ?, ?, ?, -1, ?, ?, ?, ?, 0, '')`,
			nid, guid(d.Name, n.Front), modelID, secs, tags, front+"\x1f"+back, stripHTML(front), checksum(front)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO cards VALUES (?, ?, ?, 0, ?, -1, 0, 0, ?, 0, 0, 0, 0, 0, 0, 0, 0, '')`,
			cid, nid, did, secs, i+1); err != nil {
			return err
		}
	}
	return nil
}
