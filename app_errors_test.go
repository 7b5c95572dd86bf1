package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"vika/backend/engine"
	"vika/backend/pdf"
)

func TestFormatError(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("search: %w", context.Canceled), `{"message":"search: context canceled","code":"error.cancelled"}`},
		{engine.ErrClosed, `{"message":"the session is closed","code":"error.session_closed"}`},
		{pdf.CheckSize(3<<20, pdf.Limits{MaxBytes: 1 << 20}),
			`{"message":"file too large: 3.0 MiB, the limit is 1.0 MiB","code":"ingest.too_large","params":{"limit":"1.0 MiB","size":"3.0 MiB"}}`},
	}
	for _, c := range cases {
		b, err := json.Marshal(formatError(c.err))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("formatError(%v) = %s, want %s", c.err, b, c.want)
		}
	}
}
