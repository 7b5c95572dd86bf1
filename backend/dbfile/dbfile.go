// Package dbfile names on-disk SQLite databases (modernc.org/sqlite) by
// URI, the one form that takes query parameters (pragmas, read-only).
package dbfile

import (
	"path/filepath"
	"strings"
)

// uriEscaper escapes what a URI gives a meaning to. SQLite decodes %HH in
// a URI's path, and the driver splits the query off at the first "?".
var uriEscaper = strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23")

// URI is the SQLite URI of the database file at path followed by the
// query params ("" for none), so that a folder named "Cours #2" or "Q?"
// opens the file it names and not one cut at the "#" or "?".
func URI(path, params string) string {
	u := "file:" + uriEscaper.Replace(filepath.ToSlash(path))
	if params != "" {
		u += "?" + params
	}
	return u
}
