package main

import (
	"bytes"
	"time"

	"vika/backend/export"
	"vika/backend/mindmap"
	"vika/backend/study"
)

// The mind map API of the Study view's Map tab
// (frontend/src/lib/api/mindmap.ts): the map of a study scope, built
// offline, and its exports.

// MindMap returns the mind map of sc's documents.
func (a *App) MindMap(sc study.Scope) (mindmap.Map, error) {
	return a.s.MindMap(a.ctx, sc)
}

// ExportMindMap saves the mind map of sc as "svg" or "html", its few
// words in lang (the window's: "en" or "fr").
func (a *App) ExportMindMap(sc study.Scope, format, lang string) (string, error) {
	m, err := a.s.MindMap(a.ctx, sc)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := export.MindMap(&b, format, m, lang, time.Now()); err != nil {
		return "", err
	}
	return a.save("Export mind map", "vika-mind-map."+format, format, b.Bytes())
}
