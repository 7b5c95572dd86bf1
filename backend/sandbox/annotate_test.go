package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"vika/backend/message"
	"vika/backend/pdf"
	"vika/backend/testpdf"
)

// TestAnnotateInWorker: a copy is written in a worker and reads back with
// its highlight; an encrypted file's error keeps its sentinel and code
// across the pipe; a worker that crashes or hangs while writing costs
// that copy only, with annotate.failed, and the next copy is written.
func TestAnnotateInWorker(t *testing.T) {
	o := newOpener(t, Config{PageTimeout: time.Second})
	ctx := context.Background()
	data := testpdf.Text("Entropy is the average information of a source's symbols.")
	anns := []pdf.Annotation{{Page: 1, Kind: pdf.AnnotHighlight, Boxes: []pdf.Rect{{X0: 56, Y0: 57, X1: 400, Y1: 72}}, Color: [3]float64{1, 1, 0}, Text: "key idea"}}
	out, err := o.Annotate(ctx, data, anns, pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, data) {
		t.Error("the copy does not start with the original")
	}
	d, err := pdf.Open(out, pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := d.Annotations(1)
	d.Close()
	if err != nil || len(got) != 1 || got[0].Text != "key idea" || got[0].Kind != pdf.AnnotHighlight {
		t.Fatalf("read back %+v, %v", got, err)
	}

	_, err = o.Annotate(ctx, testpdf.Encrypted("pw", "Secret."), anns, pdf.Limits{})
	if !errors.Is(err, pdf.ErrEncrypted) || message.Of(err).Code != message.AnnotateEncrypted {
		t.Errorf("encrypted: %v (code %s)", err, message.Of(err).Code)
	}
	_, err = o.Annotate(ctx, data, []pdf.Annotation{{Page: 2, Kind: pdf.AnnotNote, Boxes: anns[0].Boxes, Text: "x"}}, pdf.Limits{})
	if !errors.Is(err, pdf.ErrAnnotation) || message.Of(err).Code != message.AnnotateInvalid {
		t.Errorf("page 2 of 1: %v (code %s)", err, message.Of(err).Code)
	}

	// Workers honour faults only when started for a test that sets them.
	var fault string
	o = newOpener(t, Config{PageTimeout: time.Second})
	o.fault = func(op string, _ int) string {
		if op == opAnnotate {
			return fault
		}
		return ""
	}
	for _, f := range []string{"crash", "hang"} {
		fault = f
		start := time.Now()
		_, err := o.Annotate(ctx, data, anns, pdf.Limits{})
		if !errors.Is(err, pdf.ErrWrite) || message.Of(err).Code != message.AnnotateFailed {
			t.Errorf("%s: %v (code %s)", f, err, message.Of(err).Code)
		}
		if took := time.Since(start); took > 15*time.Second {
			t.Errorf("%s: took %v with a 1 s page budget", f, took)
		}
		fault = ""
		if out, err := o.Annotate(ctx, data, anns, pdf.Limits{}); err != nil || !bytes.HasPrefix(out, data) {
			t.Errorf("after a %s: %v", f, err)
		}
	}
}

// TestAnnotateAtOnce: copies asked at once are written by at most
// Config.Workers workers, each the copy asked for.
func TestAnnotateAtOnce(t *testing.T) {
	o := newOpener(t, Config{Workers: 2})
	data := testpdf.Text("Entropy is the average information of a source's symbols.")
	errs := make(chan error, 5)
	for i := range 5 {
		go func() {
			text := string(rune('a' + i))
			out, err := o.Annotate(context.Background(), data, []pdf.Annotation{{Page: 1, Kind: pdf.AnnotNote, Boxes: []pdf.Rect{{X0: 50, Y0: 50, X1: 70, Y1: 70}}, Text: text}}, pdf.Limits{})
			if err == nil {
				var d *pdf.Document
				if d, err = pdf.Open(out, pdf.Limits{}); err == nil {
					var got []pdf.Annotation
					got, err = d.Annotations(1)
					d.Close()
					if err == nil && (len(got) != 1 || got[0].Text != text) {
						err = errors.New("the copy holds " + fmt.Sprint(got))
					}
				}
			}
			errs <- err
		}()
	}
	for range 5 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if n := len(o.copies); n != 0 {
		t.Errorf("%d copies still hold a place", n)
	}
}

// TestAnnotateHostile writes a highlight and a note into each hostile
// file of testpdf in a worker: each copy is written, or fails with an
// annotate.* code, within its budget; a written copy opens with both.
func TestAnnotateHostile(t *testing.T) {
	o := newOpener(t, Config{PageTimeout: 2 * time.Second})
	anns := []pdf.Annotation{
		{Page: 1, Kind: pdf.AnnotHighlight, Boxes: []pdf.Rect{{X0: 10, Y0: 10, X1: 90, Y1: 24}}, Color: [3]float64{1, 1, 0}, Text: "hostile"},
		{Page: 1, Kind: pdf.AnnotNote, Boxes: []pdf.Rect{{X0: 20, Y0: 20, X1: 40, Y1: 40}}, Text: "note"},
	}
	for name, data := range testpdf.HostileSet() {
		start := time.Now()
		out, err := o.Annotate(context.Background(), data, anns, pdf.Limits{})
		took := time.Since(start)
		if took > 15*time.Second {
			t.Errorf("%s: took %v", name, took)
		}
		if err != nil {
			if code := message.Of(err).Code; !strings.HasPrefix(code, "annotate.") {
				t.Errorf("%s: %v (code %s)", name, err, code)
			}
			t.Logf("%s: refused in %v: %v", name, took.Round(time.Millisecond), err)
			continue
		}
		d, err := pdf.Open(out, pdf.Limits{})
		if err != nil {
			t.Errorf("%s: the copy does not open: %v", name, err)
			continue
		}
		got, err := d.Annotations(1)
		d.Close()
		if err != nil || len(got) < 2 {
			t.Errorf("%s: the copy holds %+v (%v)", name, got, err)
		}
		t.Logf("%s: written in %v, %d bytes added", name, took.Round(time.Millisecond), len(out)-len(data))
	}
}
