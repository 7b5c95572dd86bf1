// Package backend holds all of Vika's logic, one package per job (corpus,
// pdf, chunk, index, store, ingest, retrieve, engine, rag, study, cli, ...),
// composed by session: the one composition root that both the window and
// every CLI command open. Nothing under backend/ imports Wails: the window
// is main.go and app.go's business, and policy/layering_test.go (the
// repository's rules, outside backend/) enforces it.
package backend
