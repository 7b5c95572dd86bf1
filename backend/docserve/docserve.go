// Package docserve serves the session's PDFs to the webview, so that the
// viewer (pdf.js) loads a document from the app's own origin:
// GET /docs/<document id> returns the bytes the user added.
package docserve

import (
	"bytes"
	"context"
	"errors"
	"mime"
	"net/http"
	"strings"
	"time"

	"vika/backend/corpus"
)

// Prefix is the path under which documents are served.
const Prefix = "/docs/"

// Source returns a document and its bytes; an error wrapping corpus.ErrNotFound
// means there is no such document.
type Source func(ctx context.Context, docID string) (corpus.Document, []byte, error)

// Handler serves Prefix+id from src. Anything else is 404, any method but
// GET and HEAD 405. Responses are never cached and never sniffed.
func Handler(src Source) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := strings.CutPrefix(r.URL.Path, Prefix)
		if !ok || id == "" || strings.Contains(id, "/") {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		doc, data, err := src(r.Context(), id)
		switch {
		case errors.Is(err, corpus.ErrNotFound):
			http.Error(w, "This document is no longer in the session.", http.StatusNotFound)
			return
		case err != nil:
			http.Error(w, "The document could not be read: "+err.Error(), http.StatusInternalServerError)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "application/pdf")
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": doc.File}))
		// ServeContent also answers Range requests (the viewer loads whole
		// files today: pdf.js runs with disableRange).
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
	})
}
