package anki

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readAPKG is Python's reading of an .apkg (zipfile + sqlite3, not this
// package's code): the archive's entries, the tables, the note type's
// fields, the deck names, and every note with its card.
const readAPKG = `
import json, sqlite3, sys, tempfile, zipfile, os
z = zipfile.ZipFile(sys.argv[1])
names = sorted(z.namelist())
d = tempfile.mkdtemp()
z.extract("collection.anki2", d)
db = sqlite3.connect(os.path.join(d, "collection.anki2"))
tables = sorted(r[0] for r in db.execute("select name from sqlite_master where type='table'"))
models, decks = db.execute("select models, decks from col").fetchone()
models, decks = json.loads(models), json.loads(decks)
notes = []
for nid, mid, guid, tags, flds, sfld, csum in db.execute("select id, mid, guid, tags, flds, sfld, csum from notes order by id"):
    cards = db.execute("select did, ord, type, queue, due from cards where nid = ?", (nid,)).fetchall()
    notes.append({"mid": str(mid), "guid": guid, "tags": tags.split(), "fields": flds.split("\x1f"), "sfld": sfld,
                  "csum": csum, "cards": [{"deck": decks[str(c[0])]["name"], "ord": c[1], "type": c[2], "queue": c[3], "due": c[4]} for c in cards]})
print(json.dumps({"entries": names, "media": json.loads(z.read("media")), "tables": tables,
    "models": {k: {"name": m["name"], "fields": [f["name"] for f in m["flds"]]} for k, m in models.items()},
    "decks": sorted(v["name"] for v in decks.values()), "notes": notes,
    "integrity": db.execute("pragma integrity_check").fetchone()[0]}))
`

type pyNote struct {
	Mid    string   `json:"mid"`
	GUID   string   `json:"guid"`
	Tags   []string `json:"tags"`
	Fields []string `json:"fields"`
	Sfld   string   `json:"sfld"`
	Cards  []struct {
		Deck  string `json:"deck"`
		Ord   int    `json:"ord"`
		Type  int    `json:"type"`
		Queue int    `json:"queue"`
		Due   int    `json:"due"`
	} `json:"cards"`
}

type pyPackage struct {
	Entries []string          `json:"entries"`
	Media   map[string]string `json:"media"`
	Tables  []string          `json:"tables"`
	Models  map[string]struct {
		Name   string   `json:"name"`
		Fields []string `json:"fields"`
	} `json:"models"`
	Decks     []string `json:"decks"`
	Notes     []pyNote `json:"notes"`
	Integrity string   `json:"integrity"`
}

func python(t *testing.T, path string) pyPackage {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the .apkg cannot be read by an independent reader here")
	}
	out, err := exec.Command(py, "-c", readAPKG, path).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("python could not read the package: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var p pyPackage
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return p
}

// TestWriteAPKGReadByPython writes a deck and reads it back with Python's
// zipfile and sqlite3: Anki's five tables, the Basic note type with Front
// and Back, the deck by name, one new card per note in order, the fields
// as given (HTML-escaped) and the tags.
func TestWriteAPKGReadByPython(t *testing.T) {
	d := sample()
	path := filepath.Join(t.TempDir(), "Attention cards.apkg")
	if err := WriteAPKG(context.Background(), path, d); err != nil {
		t.Fatal(err)
	}
	p := python(t, path)
	if strings.Join(p.Entries, ",") != "collection.anki2,media" || len(p.Media) != 0 || p.Integrity != "ok" {
		t.Errorf("entries %v, media %v, integrity %q", p.Entries, p.Media, p.Integrity)
	}
	for _, want := range []string{"col", "notes", "cards", "revlog", "graves"} {
		if !contains(p.Tables, want) {
			t.Errorf("table %s missing: %v", want, p.Tables)
		}
	}
	if strings.Join(p.Decks, "|") != "Default|"+d.Name {
		t.Errorf("decks %v, want Default and %q", p.Decks, d.Name)
	}
	if len(p.Notes) != len(d.Notes) {
		t.Fatalf("%d notes, want %d", len(p.Notes), len(d.Notes))
	}
	guids := map[string]bool{}
	for i, n := range p.Notes {
		m, ok := p.Models[n.Mid]
		if !ok || m.Name != ModelName || strings.Join(m.Fields, ",") != "Front,Back" {
			t.Errorf("note %d: note type %q %+v", i, n.Mid, m)
		}
		if len(n.Fields) != 2 || n.Fields[0] != field(d.Notes[i].Front) || n.Fields[1] != field(d.Notes[i].Back) {
			t.Errorf("note %d fields %q", i, n.Fields)
		}
		if len(n.Cards) != 1 || n.Cards[0].Deck != d.Name || n.Cards[0].Ord != 0 || n.Cards[0].Type != 0 ||
			n.Cards[0].Queue != 0 || n.Cards[0].Due != i+1 {
			t.Errorf("note %d cards %+v: want one new card in %q, due %d", i, n.Cards, d.Name, i+1)
		}
		guids[n.GUID] = true
	}
	if len(guids) != len(d.Notes) {
		t.Errorf("guids not unique: %v", guids)
	}
	if strings.Join(p.Notes[0].Tags, " ") != "vika attention_is_all p5" {
		t.Errorf("tags %v", p.Notes[0].Tags)
	}
	if !strings.Contains(p.Notes[1].Fields[1], "&lt;verified&gt; &amp; &#34;checked&#34;") || !strings.Contains(p.Notes[1].Fields[1], "<br>") {
		t.Errorf("back field not HTML-escaped with its line break: %q", p.Notes[1].Fields[1])
	}
}

// TestWriteAPKGKeepsTheOldFile: a deck refused, or a path that is a
// directory, leaves what was there.
func TestWriteAPKGKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cards.apkg")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteAPKG(context.Background(), path, Deck{Name: "x"}); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty deck: %v, want ErrEmpty", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the old file became %q", b)
	}
	if err := WriteAPKG(context.Background(), dir, sample()); err == nil {
		t.Error("a directory was accepted as the package's path")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left beside: %v", entries)
	}
}

// TestWriteAPKGStopsOnCancel: a cancelled context writes nothing.
func TestWriteAPKGStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	path := filepath.Join(t.TempDir(), "cards.apkg")
	if err := WriteAPKG(ctx, path, sample()); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a package was written after cancel: %v", err)
	}
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}
