package cache

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"vika/backend/message"
	"vika/backend/testfs"
)

type value struct {
	Text string
	Vecs [][]float32
	Blob []byte
}

// notices collects the cache's notices.
type notices struct {
	mu    sync.Mutex
	codes []string
}

func (n *notices) add(m message.Message) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.codes = append(n.codes, m.Code)
}

func (n *notices) list() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.codes...)
}

func openTest(t *testing.T, dir string, max int64) (*Cache, *notices) {
	t.Helper()
	n := &notices{}
	c, err := Open(context.Background(), dir, Options{MaxBytes: max, Notice: n.add})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, n
}

func TestPutGetRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "vika")
	c, _ := openTest(t, dir, 0)
	k := Key{Doc: "abc", Setup: "s1", Part: PartDocument}
	want := value{Text: "héllo", Vecs: [][]float32{{1, 2.5}, {-3, 0}}, Blob: []byte{0, 1, 2}}
	if err := c.Put(ctx, k, want); err != nil {
		t.Fatal(err)
	}
	var got value
	ok, err := c.Get(ctx, k, &got)
	if err != nil || !ok {
		t.Fatalf("Get = %v, %v", ok, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	// Another setup (settings changed) or part is a miss.
	for _, other := range []Key{{"abc", "s2", PartDocument}, {"abc", "s1", PartVectors}, {"abd", "s1", PartDocument}} {
		if ok, err := c.Get(ctx, other, &got); ok || err != nil {
			t.Errorf("Get(%v) = %v, %v; want a miss", other, ok, err)
		}
	}
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v, %v; want 0700", fi.Mode().Perm(), err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		fi, _ := e.Info()
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v; want 0600", e.Name(), fi.Mode().Perm())
		}
	}
}

func TestForgetClearInfo(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, t.TempDir(), 0)
	for _, doc := range []string{"a", "b"} {
		for _, part := range []string{PartDocument, PartVectors} {
			if err := c.Put(ctx, Key{doc, "s", part}, value{Text: doc + part}); err != nil {
				t.Fatal(err)
			}
		}
	}
	in, err := c.Info(ctx)
	if err != nil || in.Documents != 2 || in.Entries != 4 || in.Bytes <= 0 || in.FileBytes <= 0 {
		t.Fatalf("Info = %+v, %v", in, err)
	}
	if err := c.Forget(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if has, _ := c.Has(ctx, "a"); has {
		t.Error("a still cached after Forget")
	}
	if has, _ := c.Has(ctx, "b"); !has {
		t.Error("b forgotten with a")
	}
	if err := c.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if in, _ := c.Info(ctx); in.Entries != 0 || in.Bytes != 0 {
		t.Errorf("after Clear: %+v", in)
	}
}

func TestEvictsLeastRecentlyUsed(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, t.TempDir(), 3000)
	clock := time.Unix(1000, 0)
	c.now = func() time.Time { clock = clock.Add(time.Second); return clock }
	blob := bytes.Repeat([]byte{7}, 600) // about 830 bytes encoded (base64 in JSON)
	for _, doc := range []string{"a", "b", "c"} {
		if err := c.Put(ctx, Key{doc, "s", PartDocument}, value{Blob: blob}); err != nil {
			t.Fatal(err)
		}
	}
	var v value
	if ok, _ := c.Get(ctx, Key{"a", "s", PartDocument}, &v); !ok { // a is now the most recent
		t.Fatal("a missing")
	}
	if err := c.Put(ctx, Key{"d", "s", PartDocument}, value{Blob: blob}); err != nil {
		t.Fatal(err)
	}
	for doc, want := range map[string]bool{"a": true, "b": false, "c": true, "d": true} {
		if has, _ := c.Has(ctx, doc); has != want {
			t.Errorf("%s cached = %v, want %v", doc, has, want)
		}
	}
	if in, _ := c.Info(ctx); in.Bytes > 3000 {
		t.Errorf("%d bytes over the 3000 cap", in.Bytes)
	}
	// An entry larger than the whole cap is not kept, and evicts nothing.
	if err := c.Put(ctx, Key{"e", "s", PartDocument}, value{Blob: bytes.Repeat([]byte{1}, 4000)}); err != nil {
		t.Fatal(err)
	}
	if has, _ := c.Has(ctx, "e"); has {
		t.Error("an entry over the cap was kept")
	}
}

func TestFlippedByteIsAMissWithNotice(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c, _ := openTest(t, dir, 0)
	k := Key{"doc", "s", PartDocument}
	marker := []byte("a-recognisable-passage-of-text-0123456789")
	if err := c.Put(ctx, k, value{Text: string(marker)}); err != nil {
		t.Fatal(err)
	}
	c.Close() // checkpoints the WAL into the file
	testfs.FlipByte(t, filepath.Join(dir, FileName), marker)

	c, n := openTest(t, dir, 0)
	var v value
	ok, err := c.Get(ctx, k, &v)
	if ok || err != nil {
		t.Fatalf("Get of a flipped entry = %v, %v (%q); want a miss", ok, err, v.Text)
	}
	if got := n.list(); !cmp.Equal(got, []string{message.CacheDamaged}) {
		t.Errorf("notices %v", got)
	}
	if has, _ := c.Has(ctx, "doc"); has {
		t.Error("the damaged entry was not deleted")
	}
	// Rebuilt: the next Put and Get work.
	if err := c.Put(ctx, k, value{Text: "again"}); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Get(ctx, k, &v); !ok || v.Text != "again" {
		t.Errorf("after rebuild: %v %q", ok, v.Text)
	}
}

func TestForeignEntryIsAMiss(t *testing.T) {
	ctx := context.Background()
	c, n := openTest(t, t.TempDir(), 0)
	if err := c.Put(ctx, Key{"a", "s", PartDocument}, value{Text: "of a"}); err != nil {
		t.Fatal(err)
	}
	db, _ := c.conn()
	// Another PDF's row copied under b's key, checksum and all.
	if _, err := db.Exec(`INSERT INTO entries SELECT 'b', setup, part, data, sum, size, used_at FROM entries WHERE doc_id = 'a'`); err != nil {
		t.Fatal(err)
	}
	var v value
	if ok, _ := c.Get(ctx, Key{"b", "s", PartDocument}, &v); ok {
		t.Errorf("a foreign entry was read: %q", v.Text)
	}
	if len(n.list()) != 1 {
		t.Errorf("notices %v", n.list())
	}
}

func TestDamagedFileStartsAfresh(t *testing.T) {
	ctx := context.Background()
	for name, content := range map[string][]byte{
		"garbage":   bytes.Repeat([]byte("not a database "), 500),
		"truncated": nil, // filled below with a real database cut short
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			if content == nil {
				c, _ := openTest(t, dir, 0)
				for i := range 50 {
					c.Put(ctx, Key{strings.Repeat("x", i+1), "s", PartDocument}, value{Blob: bytes.Repeat([]byte{byte(i)}, 4000)})
				}
				c.Close()
				data, _ := os.ReadFile(path)
				content = data[:len(data)/3]
			}
			if err := os.WriteFile(path, content, 0o600); err != nil {
				t.Fatal(err)
			}
			c, n := openTest(t, dir, 0)
			var v value
			for i := range 50 { // a cut file may open, and fail on reading
				if ok, err := c.Get(ctx, Key{strings.Repeat("x", i+1), "s", PartDocument}, &v); err != nil {
					t.Fatalf("Get: %v", err)
				} else if ok && !bytes.Equal(v.Blob, bytes.Repeat([]byte{byte(i)}, 4000)) {
					t.Fatalf("entry %d read back wrong", i)
				}
			}
			if err := c.Put(ctx, Key{"new", "s", PartDocument}, value{Text: "fresh"}); err != nil {
				t.Fatalf("Put after a damaged file: %v", err)
			}
			if ok, _ := c.Get(ctx, Key{"new", "s", PartDocument}, &v); !ok {
				t.Error("nothing kept after starting afresh")
			}
			t.Logf("notices: %v", n.list())
		})
	}
}

func TestDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/somewhere/cache")
	if d, err := Dir(); err != nil || d != "/somewhere/cache/vika" {
		t.Errorf("Dir = %q, %v", d, err)
	}
}

// TestOlderVersionIsEmptiedQuietly: a cache of the version before (its
// entries in gob, not kept's encoding) is emptied where it is, without
// the notice of a damaged file and nothing set aside; a newer one is set
// aside with it.
func TestOlderVersionIsEmptiedQuietly(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		version  string
		notices  []string
		setAside bool
	}{
		{"1", nil, false},
		{"3", []string{message.CacheReset}, true},
	} {
		t.Run("version "+tc.version, func(t *testing.T) {
			dir := t.TempDir()
			c, _ := openTest(t, dir, 0)
			if err := c.Put(ctx, Key{"a", "s", PartDocument}, value{Text: "of a"}); err != nil {
				t.Fatal(err)
			}
			db, _ := c.conn()
			if _, err := db.Exec(`UPDATE about SET v = ? WHERE k = 'version'`, tc.version); err != nil {
				t.Fatal(err)
			}
			c.Close()
			c, n := openTest(t, dir, 0)
			var v value
			if ok, err := c.Get(ctx, Key{"a", "s", PartDocument}, &v); ok || err != nil {
				t.Errorf("an entry of version %s was read: %v, %v", tc.version, ok, err)
			}
			if got := n.list(); !cmp.Equal(got, tc.notices) {
				t.Errorf("notices %v, want %v", got, tc.notices)
			}
			_, err := os.Stat(filepath.Join(dir, FileName+".damaged"))
			if aside := err == nil; aside != tc.setAside {
				t.Errorf("set aside: %v, want %v", aside, tc.setAside)
			}
			if err := c.Put(ctx, Key{"b", "s", PartDocument}, value{Text: "of b"}); err != nil {
				t.Fatal(err)
			}
			if ok, _ := c.Get(ctx, Key{"b", "s", PartDocument}, &v); !ok || v.Text != "of b" {
				t.Errorf("after the upgrade: %v %q", ok, v.Text)
			}
		})
	}
}
