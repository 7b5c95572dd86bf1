package dbfile

import (
	"database/sql"
	"os"
	"path/filepath"
	"runtime"
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

// TestURIForms checks the URI strings of Windows and POSIX paths (the
// Windows rows run on any system: the path style is a parameter). On main
// a share (\\server\share\course.vika) became "file://server/share/...",
// whose "server" SQLite refuses as a URI authority, so the course was
// reported damaged: the share rows fail there, as does "//tmp".
func TestURIForms(t *testing.T) {
	cases := []struct {
		path    string
		windows bool
		want    string
	}{
		{`C:\Users\Ana\Cours\course.vika`, true, "file:///C:/Users/Ana/Cours/course.vika"},
		{`c:\Mes documents\Cours #2\q?.vika`, true, "file:///c:/Mes documents/Cours %232/q%3F.vika"},
		{`D:\50% off\a&b=c.vika`, true, "file:///D:/50%25 off/a&b=c.vika"},
		{`\\server\share\course.vika`, true, "file:////server/share/course.vika"},
		{`\\nas\Cours 2024\#1\c.vika`, true, "file:////nas/Cours 2024/%231/c.vika"},
		{`//server/share/course.vika`, true, "file:////server/share/course.vika"},
		{`\\?\C:\very\long\course.vika`, true, `file:\\%3F\C:\very\long\course.vika`},
		{`\\?\UNC\server\share\course.vika`, true, `file:\\%3F\UNC\server\share\course.vika`},
		{`\Users\Ana\course.vika`, true, "file:///Users/Ana/course.vika"}, // the current drive's root
		{`C:course.vika`, true, "file:C:course.vika"},                     // drive-relative: left so
		{`Cours\course.vika`, true, "file:Cours/course.vika"},
		{"/home/ana/Cours #2/course.vika", false, "file:///home/ana/Cours %232/course.vika"},
		{"//tmp/course.vika", false, "file:////tmp/course.vika"},
		{`/home/ana/a\b.vika`, false, `file:///home/ana/a\b.vika`}, // a backslash is a name's on POSIX
		{"course.vika", false, "file:course.vika"},
	}
	for _, c := range cases {
		if got := uri(c.path, "", c.windows); got != c.want {
			t.Errorf("uri(%q, windows=%v) = %q, want %q", c.path, c.windows, got, c.want)
		}
	}
	if got := uri(`\\server\share\c.vika`, "mode=ro", true); got != "file:////server/share/c.vika?mode=ro" {
		t.Errorf("with params: %q", got)
	}
}

// TestURIOpensAPathBeginningWithTwoSlashes opens a database by a POSIX
// path written with a leading "//", the form a share takes: on main its
// first name was read as a URI authority and the open failed.
func TestURIOpensAPathBeginningWithTwoSlashes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX paths")
	}
	path := "/" + filepath.Join(t.TempDir(), "course.vika") // "//tmp/..."
	db, err := sql.Open("sqlite", URI(path, ""))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE t (v TEXT)`); err != nil {
		t.Fatalf("%s: %v", URI(path, ""), err)
	}
	if _, err := os.Stat(path[1:]); err != nil {
		t.Fatal(err)
	}
}
