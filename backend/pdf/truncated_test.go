package pdf

import (
	"bytes"
	"testing"

	"vika/backend/testpdf"
)

// TestTruncatedTail: more than 1 KB after %%EOF (a signature's padding, a
// polyglot's payload) is not a truncation; an incremental update cut
// before its %%EOF, or no %%EOF at all, is.
func TestTruncatedTail(t *testing.T) {
	whole := testpdf.Text("one page")
	cut := whole[:bytes.LastIndex(whole, []byte("%%EOF"))]
	for name, tc := range map[string]struct {
		data []byte
		want bool
	}{
		"whole":                  {whole, false},
		"4 KB of zeros after":    {append(append([]byte{}, whole...), make([]byte, 4096)...), false},
		"a zip payload after":    {append(append([]byte{}, whole...), append([]byte("PK\x03\x04"), bytes.Repeat([]byte("payload "), 2000)...)...), false},
		"no %%EOF":               {cut, true},
		"cut incremental update": {append(append([]byte{}, whole...), []byte("\n5 0 obj\n<< /Type /Page >>\nendobj\nxref\n0 1\n")...), true},
	} {
		if got := truncated(tc.data); got != tc.want {
			t.Errorf("%s: truncated = %v, want %v", name, got, tc.want)
		}
	}
}
