package dbfile

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite"
)

// TestURIOpensTheFileItNames writes a database through URI under folders
// whose names hold the characters a URI gives a meaning to, and checks
// that the file named is the one written, and nothing beside it.
func TestURIOpensTheFileItNames(t *testing.T) {
	for _, folder := range []string{"Cours #2", "q?x", "50% x", "a&b=c"} {
		t.Run(folder, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, folder)
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "course.vika")
			db, err := sql.Open("sqlite", URI(path, "_pragma=journal_mode(OFF)"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('kept')`); err != nil {
				t.Fatal(err)
			}
			db.Close()
			fi, err := os.Stat(path)
			if err != nil || fi.Size() == 0 {
				t.Fatalf("%s: %v, size %v: the database went elsewhere", path, err, fi)
			}
			if entries, _ := os.ReadDir(root); len(entries) != 1 {
				t.Errorf("files beside the folder: %v", entries)
			}
			ro, err := sql.Open("sqlite", URI(path, "mode=ro"))
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			var v string
			if err := ro.QueryRow(`SELECT v FROM t`).Scan(&v); err != nil || v != "kept" {
				t.Fatalf("read back %q, %v", v, err)
			}
		})
	}
}
