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

// A page's reason reads the same in English whether its page number is
// the int it was made with or the number read back from JSON.
func TestPageEnglish(t *testing.T) {
	cases := []struct {
		m    Message
		want string
	}{
		{New(PageTimeout, "page", 4, "limit", "30s"), "page 4 took too long and was skipped (more than 30s)"},
		{Message{PageTimeout, Params{"page": 4.0, "limit": "30s"}}, "page 4 took too long and was skipped (more than 30s)"},
		{Message{PageTimeout, Params{"page": json.Number("4"), "limit": "30s"}}, "page 4 took too long and was skipped (more than 30s)"},
		{New(PageCrashed, "page", 2, "detail", "exit status 2"), "page 2 crashed the PDF reader and was skipped (exit status 2)"},
		{New(PageUnread, "page", 3, "detail", "page 3: page cannot be read (bad xref)"), "page 3: page cannot be read (bad xref)"},
		{New(PageUnread, "page", 3), "page 3 cannot be read and was skipped"},
		{New(PageTruncated, "page", 5), "page content missing: the file is truncated"},
		{New(PageOCRTimeout, "page", 1, "limit", "1m30s"), "OCR of page 1 took too long and was skipped (more than 1m30s)"},
		{New(PageOCRFailed, "page", 1, "detail", "cannot render the page for OCR"), "OCR failed: cannot render the page for OCR"},
	}
	for _, c := range cases {
		if got := c.m.English(); got != c.want {
			t.Errorf("%s %v: %q, want %q", c.m.Code, c.m.Params, got, c.want)
		}
	}
}

// The command line's English of notices and answer errors, with the
// parameters only it uses.
func TestNoticeEnglish(t *testing.T) {
	cases := []struct {
		m    Message
		want string
	}{
		{New(NoticeFallback, "model", "Gemini 2.5 Flash-Lite", "reason", "rate_limited", "next", "Llama 3.1 8B (Groq)",
			"later", "Ministral 8B", "status", 429, "retry", "43s"),
			"Gemini 2.5 Flash-Lite is unavailable (rate limited (429), retry in 43s). Trying Llama 3.1 8B (Groq); then Ministral 8B."},
		{New(NoticeFallback, "model", "Ministral 8B", "reason", "quota", "next", ""),
			"Ministral 8B is unavailable (quota used up). No other model is available."},
		{New(NoticeSkipped, "model", "Mistral Small", "next", "Gemini 2.5 Flash-Lite", "detail", "no API key for Mistral AI"),
			"Mistral Small cannot be used now (no API key for Mistral AI). Using Gemini 2.5 Flash-Lite instead."},
		{New(NoticeInterrupted, "model", "Groq", "reason", "stream", "status", 502),
			"The answer from Groq broke off (broke off (502)); what arrived is kept."},
		{New(NoticeRouterUnknown, "router", "mf"), `Router "mf" is unknown; using the heuristic complexity router.`},
		{New(NoticeNoModel, "detail", "no model service is configured"),
			"No model service is configured. The best passages are quoted instead of a written answer."},
		{New(Exhausted, "attempts", []Attempt{{"Gemini", "rate_limited"}, {"Groq", "strange"}}),
			"No model could answer: Gemini was rate limited; Groq failed. Try again in a minute, pick another model, or add another provider's API key in Settings."},
	}
	for _, c := range cases {
		if got := c.m.English(); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.m.Code, got, c.want)
		}
	}
}
