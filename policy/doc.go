// Package policy holds the repository's rules, written as tests: the
// layering of the backend's packages and their forbidden imports, a doc
// comment on every package, one app_<module>.go per API module called
// from frontend/src/lib/api/<module>.ts, and every script reached by
// something that runs or documents it. It has no code: its tests read the
// repository's files (from its root) and build without the Wails app, so
// `go test ./policy/` needs no webkit build tag.
package policy
