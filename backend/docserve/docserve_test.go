package docserve

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"vika/backend/corpus"
)

func source(docs map[string][]byte) Source {
	return func(_ context.Context, id string) (corpus.Document, []byte, error) {
		data, ok := docs[id]
		if !ok {
			return corpus.Document{}, nil, fmt.Errorf("%w: %s", corpus.ErrNotFound, id)
		}
		return corpus.Document{ID: id, File: "cours d’été.pdf"}, data, nil
	}
}

func TestHandler(t *testing.T) {
	pdf := []byte("%PDF-1.4\n...the whole file...\n%%EOF\n")
	srv := httptest.NewServer(Handler(source(map[string][]byte{"abc": pdf})))
	defer srv.Close()

	for _, tc := range []struct {
		method, path string
		status       int
		body         string
	}{
		{"GET", "/docs/abc", 200, string(pdf)},
		{"GET", "/docs/unknown", 404, "This document is no longer in the session.\n"},
		{"GET", "/docs/", 404, "404 page not found\n"},
		{"GET", "/docs/abc/../x", 404, "404 page not found\n"},
		{"GET", "/other/abc", 404, "404 page not found\n"},
		{"POST", "/docs/abc", 405, "method not allowed\n"},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status || string(body) != tc.body {
			t.Errorf("%s %s = %d %q, want %d %q", tc.method, tc.path, res.StatusCode, body, tc.status, tc.body)
		}
		if tc.status == 200 {
			if ct := res.Header.Get("Content-Type"); ct != "application/pdf" {
				t.Errorf("Content-Type = %q", ct)
			}
			if cd := res.Header.Get("Content-Disposition"); cd != `inline; filename*=utf-8''cours%20d%E2%80%99%C3%A9t%C3%A9.pdf` {
				t.Errorf("Content-Disposition = %q", cd)
			}
			if res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("headers = %v", res.Header)
			}
		}
	}
}

func TestRange(t *testing.T) {
	pdf := []byte("%PDF-1.4 0123456789")
	srv := httptest.NewServer(Handler(source(map[string][]byte{"abc": pdf})))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/docs/abc", nil)
	req.Header.Set("Range", "bytes=9-12")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusPartialContent || string(body) != "0123" {
		t.Fatalf("range = %d %q, want 206 \"0123\"", res.StatusCode, body)
	}
}
