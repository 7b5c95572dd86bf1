// Package dbfile names on-disk SQLite databases (modernc.org/sqlite) by
// URI, the one form that takes query parameters (pragmas, read-only).
package dbfile

import (
	"runtime"
	"strings"
)

// uriEscaper escapes what a URI gives a meaning to. SQLite decodes %HH in
// a URI's path and ends the path at "#", and the driver splits the query
// off at the first "?". A space needs no escape (sqlite.org/uri.html).
var uriEscaper = strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23")

// URI is the SQLite URI of the database file at path followed by the
// query params ("" for none), so that a folder named "Cours #2" or "Q?"
// opens the file it names and not one cut at the "#" or "?", and a
// Windows share (\\server\share\course.vika) opens rather than being
// taken for a URI authority, which SQLite refuses.
func URI(path, params string) string {
	return uri(path, params, runtime.GOOS == "windows")
}

// uri is URI for a path in Windows' form (windows) or POSIX's, so that
// both can be tested on either.
//
// SQLite reads "file:" then, after "//", an authority that must be empty
// or "localhost", then the path. An absolute path is therefore written
// after an empty authority ("file://" + "/home/ana/c.vika"), which keeps
// a path that itself begins with "//" (a share, or POSIX's "//tmp") a
// path. On Windows the separators become "/" and a drive letter gets the
// leading "/" that SQLite's Windows layer drops again ("file:///C:/x"); a
// share becomes "file:////server/share/x", which Windows opens as
// \\server\share\x. A verbatim path (\\?\C:\x, \\?\UNC\server\share\x)
// must keep its backslashes and so is written without an authority:
// SQLite only looks for one after "file://".
func uri(path, params string, windows bool) string {
	p := path
	if windows && !strings.HasPrefix(p, `\\?\`) {
		p = strings.ReplaceAll(p, `\`, "/")
		if isDrive(p) && len(p) > 2 && p[2] == '/' { // C:/x, not the drive-relative C:x
			p = "/" + p
		}
	}
	u := "file:"
	if strings.HasPrefix(p, "/") {
		u += "//"
	}
	u += uriEscaper.Replace(p)
	if params != "" {
		u += "?" + params
	}
	return u
}

// isDrive reports whether p begins with a drive letter and a colon.
func isDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z')
}
