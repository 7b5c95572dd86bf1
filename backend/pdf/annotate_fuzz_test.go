package pdf

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"vika/backend/message"
)

// FuzzAnnotate writes a highlight and a note into arbitrary bytes: it
// must never panic, abort or hang; a failure carries an annotate.* code
// (or the size limit's) and wraps a sentinel; a copy written opens again
// with both annotations on page 1. Run it with
//
//	go test -run '^$' -fuzz FuzzAnnotate -fuzztime 3m ./backend/pdf/
func FuzzAnnotate(f *testing.F) {
	for _, seed := range fuzzSeeds() {
		f.Add(seed)
	}
	anns := []Annotation{
		{Page: 1, Kind: AnnotHighlight, Boxes: []Rect{{10, 10, 200, 24}, {10, 26, 120, 40}}, Color: [3]float64{1, 1, 0}, Text: "fuzzed"},
		{Page: 1, Kind: AnnotNote, Boxes: []Rect{{30, 30, 50, 50}}, Color: [3]float64{0, 0, 1}, Text: "a note"},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		watchdog := time.AfterFunc(fuzzDeadline, func() {
			panic(fmt.Sprintf("pdf: annotating %d bytes took more than %s (hang)", len(data), fuzzDeadline))
		})
		defer watchdog.Stop()
		out, err := Annotate(data, anns, fuzzLimits)
		if err != nil {
			code := message.Of(err).Code
			if !strings.HasPrefix(code, "annotate.") && code != message.TooLarge && code != message.TooManyPages {
				t.Fatalf("error %q has code %s", err, code)
			}
			if !isOneOf(err, append(openErrors, ErrAnnotation, ErrWrite)) {
				t.Fatalf("error %q wraps none of the sentinels", err)
			}
			return
		}
		d, err := Open(out, Limits{})
		if err != nil {
			t.Fatalf("the copy does not open: %v", err)
		}
		defer d.Close()
		got, err := d.Annotations(1)
		if err != nil {
			t.Fatalf("the copy's annotations: %v", err)
		}
		n := 0
		for _, a := range got {
			if a.Text == "fuzzed" || a.Text == "a note" {
				n++
			}
		}
		if n != 2 {
			t.Fatalf("the copy holds %d of the 2 annotations: %+v", n, got)
		}
	})
}
