package message

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the frontend's list of codes")

// codesFile is the list of codes the frontend's test reads to check that
// every code has an English and a French text.
var codesFile = filepath.Join("..", "..", "frontend", "src", "lib", "i18n", "codes.json")

func TestCodesFileIsCurrent(t *testing.T) {
	want, err := json.MarshalIndent(Codes(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	if *update {
		if err := os.WriteFile(codesFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(codesFile)
	if err != nil {
		t.Fatalf("%v: run go test ./backend/message -update", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s is stale: run go test ./backend/message -update", codesFile)
	}
}

func TestEveryCodeHasEnglish(t *testing.T) {
	p := Params{"size": "12 MB", "limit": "10 MB", "pages": 3, "label": "a.pdf", "page": 4,
		"model": "Gemini", "reason": "quota", "next": "Mistral", "router": "mf", "detail": "x",
		"kb": 64, "tokens": 100, "step": "HyDE", "attempts": []Attempt{{"Gemini", "rate_limited"}}}
	for _, c := range Codes() {
		s := Message{Code: c, Params: p}.English()
		if s == "" || strings.Contains(s, "%!") {
			t.Errorf("%s: English %q", c, s)
		}
	}
	for _, k := range Reasons {
		if reasons[k] == "" {
			t.Errorf("reason %q has no English", k)
		}
	}
}

func TestOf(t *testing.T) {
	errA := errors.New("sentinel a")
	errB := fmt.Errorf("%w: more specific", errA)
	Register(errB, NoPages)
	Register(errA, NotPDF)
	defer func() { sentinels = sentinels[:len(sentinels)-2] }()

	cases := []struct {
		err  error
		want Message
	}{
		{fmt.Errorf("file x: %w", errA), Message{Code: NotPDF}},
		{fmt.Errorf("file x: %w", errB), Message{Code: NoPages}},
		{Wrap(fmt.Errorf("%w: 12 MB", errA), TooLarge, "size", "12 MB", "limit", "10 MB"),
			New(TooLarge, "size", "12 MB", "limit", "10 MB")},
		{fmt.Errorf("ask: %w", context.Canceled), Message{Code: Cancelled}},
		{context.DeadlineExceeded, Message{Code: TimedOut}},
		{errors.New("disk full"), New(Other, "detail", "disk full")},
	}
	for _, c := range cases {
		got := Of(c.err)
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(c.want)
		if string(g) != string(w) {
			t.Errorf("Of(%v) = %s, want %s", c.err, g, w)
		}
	}
	if Of(nil).Code != "" {
		t.Error("Of(nil) has a code")
	}
	wrapped := Wrap(errA, TooLarge, "size", "1 MB")
	if !errors.Is(wrapped, errA) || wrapped.Error() != "sentinel a" {
		t.Errorf("Wrap changed the error: %v", wrapped)
	}
}

func TestEnglish(t *testing.T) {
	got := New(NoticeFallback, "model", "Gemini 2.5 Flash", "reason", "rate_limited", "next", "Mistral Small").English()
	want := "Gemini 2.5 Flash is unavailable (rate limited). Trying Mistral Small."
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := New("no.such.code").English(); !strings.HasPrefix(got, "Something went wrong") {
		t.Errorf("unknown code: %q", got)
	}
}
