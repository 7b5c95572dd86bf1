package main

import (
	"strings"
	"testing"
)

func TestOneLine(t *testing.T) {
	for _, tt := range []struct {
		in   string
		max  int
		want string
	}{
		{"TypeError: x is undefined\n  at f (main.js:1)", 100, "TypeError: x is undefined at f (main.js:1)"},
		{"abcdef", 3, "abc…"},
		{"ééé", 3, "é…"}, // never a cut inside a rune
	} {
		if got := oneLine(tt.in, tt.max); got != tt.want {
			t.Errorf("oneLine(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
	if got := oneLine(strings.Repeat("x", 600), maxFrontendMessage); len(got) != maxFrontendMessage+len("…") {
		t.Errorf("cut to %d bytes", len(got))
	}
}
