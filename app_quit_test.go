package main

import (
	"testing"
	"time"
)

// TestQuitGate: closing the window with unsaved work keeps it open and
// asks the page once it listens; without unsaved work, before the page
// listens (it never loaded) or after the student's answer, it closes.
func TestQuitGate(t *testing.T) {
	for _, c := range []struct {
		name                       string
		listening, allowed, unsave bool
		prevent                    bool
	}{
		{name: "unsaved work", listening: true, unsave: true, prevent: true},
		{name: "nothing unsaved", listening: true},
		{name: "after Don't save", listening: true, allowed: true, unsave: true},
		{name: "no page listening", unsave: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var g quitGate
			g.listening.Store(c.listening)
			g.allowed.Store(c.allowed)
			asked := 0
			prevent := g.decide(time.Now(), func() bool { return c.unsave }, func() { asked++ })
			if prevent != c.prevent {
				t.Errorf("prevent = %v, want %v", prevent, c.prevent)
			}
			if want := map[bool]int{true: 1, false: 0}[c.prevent]; asked != want {
				t.Errorf("asked %d times, want %d", asked, want)
			}
		})
	}
}

// TestQuitGateFrozenPage: a question the page never shows (a page that
// froze after it loaded) does not keep the window open for ever: a close
// asked again more than quitShowWait later goes through; one the page
// showed is asked again.
func TestQuitGateFrozenPage(t *testing.T) {
	var g quitGate
	g.listening.Store(true)
	unsaved := func() bool { return true }
	t0 := time.Now()
	if !g.decide(t0, unsaved, func() {}) {
		t.Fatal("first close: not asked")
	}
	if !g.decide(t0.Add(time.Second), unsaved, func() {}) {
		t.Error("asked again within the wait: closed")
	}
	if g.decide(t0.Add(quitShowWait+time.Second), unsaved, func() {}) {
		t.Error("never shown, asked again after the wait: kept open")
	}
	var h quitGate
	h.listening.Store(true)
	h.decide(t0, unsaved, func() {})
	h.shown()
	if !h.decide(t0.Add(time.Minute), unsaved, func() {}) {
		t.Error("shown, closed again a minute later: not asked")
	}
}
