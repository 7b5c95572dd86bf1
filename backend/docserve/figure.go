package docserve

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"vika/backend/corpus"
)

// CropPrefix is the path under which figure crops are served:
// CropPrefix + <document id>/<page>/<n>, the n-th (0-based) region with a
// crop on that page. Crops are served by id, one at a time, rather than
// sent over the bridge as base64 with a whole document's regions.
const CropPrefix = "/crops/"

// CropSource returns the n-th crop of a document's page (PNG bytes); an
// error wrapping corpus.ErrNotFound means there is none.
type CropSource func(ctx context.Context, docID string, page, n int) ([]byte, error)

// CropURL is the address of the n-th crop of a document's page, for an
// <img> of the window (img-src 'self').
func CropURL(docID string, page, n int) string {
	return CropPrefix + url.PathEscape(docID) + "/" + strconv.Itoa(page) + "/" + strconv.Itoa(n)
}

// Crops serves CropPrefix addresses from src. The bytes are only ever
// labelled image/png: a crop that is not a PNG does not decode, it does not
// become another type.
func Crops(src CropSource) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest, _ := strings.CutPrefix(r.URL.Path, CropPrefix)
		parts := strings.Split(rest, "/")
		if len(parts) != 3 || parts[0] == "" {
			http.NotFound(w, r)
			return
		}
		page, err1 := strconv.Atoi(parts[1])
		n, err2 := strconv.Atoi(parts[2])
		if err1 != nil || err2 != nil || page < 1 || n < 0 {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		png, err := src(r.Context(), parts[0], page, n)
		switch {
		case errors.Is(err, corpus.ErrNotFound):
			http.Error(w, "This figure is no longer in the session.", http.StatusNotFound)
			return
		case err != nil:
			http.Error(w, "The figure could not be read: "+err.Error(), http.StatusInternalServerError)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "image/png")
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(png))
	})
}

// Serve routes the window's asset requests: Prefix to docs, CropPrefix to
// crops, anything else 404.
func Serve(docs Source, crops CropSource) http.Handler {
	d, c := Handler(docs), Crops(crops)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, CropPrefix) {
			c.ServeHTTP(w, r)
			return
		}
		d.ServeHTTP(w, r)
	})
}
