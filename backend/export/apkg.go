package export

import (
	"archive/zip"
	"context"
	"crypto/sha1"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver

	"vika/backend/dbfile"
	"vika/backend/study"
)

// apkgModelID is the id of Vika's note type, the same in every export:
// Anki updates a note it already has (same guid) only when the note type
// matches, so a deck exported again updates its notes instead of being
// skipped. (A time-based id made a new note type at every export.)
const apkgModelID int64 = 1_733_140_800_000

// deckIDOf is a deck's id, the same for the same deck name, so that a
// deck imported again lands in the deck it made the first time.
func deckIDOf(name string) int64 {
	h := sha1.Sum([]byte("vika deck " + name))
	return int64(binary.BigEndian.Uint64(h[:8])>>12) + 2 // positive, past Anki's default deck (1)
}

// apkgSchema is Anki's collection schema 11 (col, notes, cards, revlog,
// graves and their indexes), which every Anki since 2.1 imports.
const apkgSchema = `
create table col (id integer primary key, crt integer not null, mod integer not null, scm integer not null,
 ver integer not null, dty integer not null, usn integer not null, ls integer not null, conf text not null,
 models text not null, decks text not null, dconf text not null, tags text not null);
create table notes (id integer primary key, guid text not null, mid integer not null, mod integer not null,
 usn integer not null, tags text not null, flds text not null, sfld integer not null, csum integer not null,
 flags integer not null, data text not null);
create table cards (id integer primary key, nid integer not null, did integer not null, ord integer not null,
 mod integer not null, usn integer not null, type integer not null, queue integer not null, due integer not null,
 ivl integer not null, factor integer not null, reps integer not null, lapses integer not null, left integer not null,
 odue integer not null, odid integer not null, flags integer not null, data text not null);
create table revlog (id integer primary key, cid integer not null, usn integer not null, ease integer not null,
 ivl integer not null, lastIvl integer not null, factor integer not null, time integer not null, type integer not null);
create table graves (usn integer not null, oid integer not null, type integer not null);
create index ix_notes_usn on notes (usn);
create index ix_cards_usn on cards (usn);
create index ix_revlog_usn on revlog (usn);
create index ix_cards_nid on cards (nid);
create index ix_cards_sched on cards (did, queue, due);
create index ix_revlog_cid on revlog (cid);
create index ix_notes_csum on notes (csum);`

// APKG writes a deck as an Anki package: a zip holding collection.anki2
// (the SQLite collection: one "Vika basic" note type with Front, Back and
// Source fields, one deck named DeckName, a note and a new card per
// flashcard) and media (an empty map: no media). The collection is built
// in a temporary file, removed afterwards.
func APKG(w io.Writer, d study.Deck) error {
	dir, err := os.MkdirTemp("", "vika-apkg-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "collection.anki2")
	if err := writeCollection(context.Background(), path, d, time.Now()); err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	z := zip.NewWriter(w)
	for _, f := range []struct {
		name string
		data []byte
	}{{"collection.anki2", data}, {"media", []byte("{}")}} {
		fw, err := z.Create(f.name)
		if err != nil {
			return err
		}
		if _, err := fw.Write(f.data); err != nil {
			return err
		}
	}
	return z.Close()
}

// writeCollection creates the collection file at path.
func writeCollection(ctx context.Context, path string, d study.Deck, now time.Time) error {
	db, err := sql.Open("sqlite", dbfile.URI(path, ""))
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, apkgSchema); err != nil {
		return err
	}
	ms, s := now.UnixMilli(), now.Unix()
	modelID, deckID := apkgModelID, deckIDOf(DeckName(d))
	models, decks, dconf, conf := collectionJSON(d, modelID, deckID, s)
	if _, err := tx.ExecContext(ctx, `insert into col values (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, '{}')`,
		s, ms, ms, conf, models, decks, dconf); err != nil {
		return err
	}
	tags := " " + strings.Join(deckTags(d), " ") + " "
	for i, c := range d.Cards {
		f := cardFields(c)
		id := ms + 10 + int64(i)
		if _, err := tx.ExecContext(ctx, `insert into notes values (?, ?, ?, ?, -1, ?, ?, ?, ?, 0, '')`,
			id, guid(d, c), modelID, s, tags, strings.Join(f[:], "\x1f"), f[0], checksum(f[0])); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `insert into cards values (?, ?, ?, 0, ?, -1, 0, 0, ?, 0, 0, 0, 0, 0, 0, 0, 0, '')`,
			id, id, deckID, s, i+1); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// collectionJSON returns the col row's models, decks, dconf and conf.
func collectionJSON(d study.Deck, modelID, deckID, now int64) (models, decks, dconf, conf string) {
	field := func(name string, ord int) map[string]any {
		return map[string]any{"name": name, "ord": ord, "sticky": false, "rtl": false, "font": "Arial", "size": 20, "media": []any{}}
	}
	model := map[string]any{
		"id": modelID, "name": "Vika basic", "type": 0, "mod": now, "usn": -1, "sortf": 0, "did": deckID,
		"flds": []any{field("Front", 0), field("Back", 1), field("Source", 2)},
		"tmpls": []any{map[string]any{"name": "Card 1", "ord": 0, "qfmt": "{{Front}}",
			"afmt": "{{FrontSide}}<hr id=answer>{{Back}}<br><small>{{Source}}</small>", "did": nil, "bqfmt": "", "bafmt": ""}},
		"css":       ".card { font-family: arial; font-size: 20px; text-align: center; color: black; background-color: white; }",
		"latexPre":  "\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n\\begin{document}\n",
		"latexPost": "\\end{document}", "tags": []any{}, "vers": []any{}, "req": []any{[]any{0, "any", []any{0}}},
	}
	deck := func(id int64, name string) map[string]any {
		return map[string]any{"id": id, "name": name, "mod": now, "usn": -1, "desc": "", "dyn": 0, "conf": 1,
			"collapsed": false, "extendNew": 10, "extendRev": 50,
			"newToday": []int{0, 0}, "revToday": []int{0, 0}, "lrnToday": []int{0, 0}, "timeToday": []int{0, 0}}
	}
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	models = js(map[string]any{strconv.FormatInt(modelID, 10): model})
	decks = js(map[string]any{"1": deck(1, "Default"), strconv.FormatInt(deckID, 10): deck(deckID, DeckName(d))})
	dconf = js(map[string]any{"1": map[string]any{"id": 1, "name": "Default", "mod": 0, "usn": 0, "maxTaken": 60,
		"autoplay": true, "timer": 0, "replayq": true, "dyn": false,
		"new":   map[string]any{"delays": []int{1, 10}, "ints": []int{1, 4, 7}, "initialFactor": 2500, "order": 1, "perDay": 20, "bury": true},
		"rev":   map[string]any{"perDay": 200, "ease4": 1.3, "fuzz": 0.05, "maxIvl": 36500, "ivlFct": 1, "minSpace": 1, "bury": true},
		"lapse": map[string]any{"delays": []int{10}, "mult": 0, "minInt": 1, "leechFails": 8, "leechAction": 0}}})
	conf = js(map[string]any{"nextPos": len(d.Cards) + 1, "estTimes": true, "activeDecks": []int64{deckID}, "sortType": "noteFld",
		"timeLim": 0, "sortBackwards": false, "addToCur": true, "curDeck": deckID, "newSpread": 0, "dueCounts": true,
		"curModel": strconv.FormatInt(modelID, 10), "collapseTime": 1200})
	return models, decks, dconf, conf
}

// checksum is Anki's field checksum: the first 8 hex digits of the sort
// field's SHA-1, as an integer.
func checksum(field string) int64 {
	h := sha1.Sum([]byte(field))
	return int64(binary.BigEndian.Uint32(h[:4]))
}

// guid is a note's stable id: the same card of the same document imports
// as the same note (Anki updates it rather than duplicating it).
func guid(d study.Deck, c study.Card) string {
	h := sha1.Sum([]byte(d.DocID + "\x00" + c.Question))
	return hex.EncodeToString(h[:8])
}
