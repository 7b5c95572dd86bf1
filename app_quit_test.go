package main

import "testing"

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
			prevent := g.decide(func() bool { return c.unsave }, func() { asked++ })
			if prevent != c.prevent {
				t.Errorf("prevent = %v, want %v", prevent, c.prevent)
			}
			if want := map[bool]int{true: 1, false: 0}[c.prevent]; asked != want {
				t.Errorf("asked %d times, want %d", asked, want)
			}
		})
	}
}
