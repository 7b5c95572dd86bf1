package testpdf

import (
	"bytes"
	"testing"
)

func TestDeterministic(t *testing.T) {
	a, b := Text("hello", "world"), Text("hello", "world")
	if !bytes.Equal(a, b) {
		t.Fatal("two identical calls produced different bytes")
	}
	if !bytes.HasPrefix(a, []byte("%PDF-")) {
		t.Fatalf("no PDF header: %q", a[:8])
	}
	if bytes.Equal(a, Text("hello", "world!")) {
		t.Fatal("different text produced identical bytes")
	}
}

func TestWords(t *testing.T) {
	if got, want := Words("w", 3), "w0 w1 w2"; got != want {
		t.Fatalf("Words = %q, want %q", got, want)
	}
}
