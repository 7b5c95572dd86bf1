package rag

import (
	"strings"
	"testing"
)

// TestRestoreConversationBounds: a course file's turns join the
// conversation newest first within the bounds: a turn over its size is
// left out, the rest in order, at most MaxRestoredBytes in all.
func TestRestoreConversationBounds(t *testing.T) {
	s := &Assistant{turns: []Answer{{ID: "mine"}}}
	huge := Answer{ID: "huge", Answer: strings.Repeat("x", MaxRestoredTurnBytes)}
	n := s.RestoreConversation([]Answer{{ID: "c1"}, huge, {ID: "c2"}})
	got := ids(s.Conversation())
	if n != 2 || got != "mine c1 c2" {
		t.Fatalf("restored %d: %s, want 2: mine c1 c2", n, got)
	}

	big := strings.Repeat("y", MaxRestoredTurnBytes/2)
	var many []Answer
	for range 2 * MaxRestoredBytes / len(big) {
		many = append(many, Answer{ID: "old", Answer: big})
	}
	many = append(many, Answer{ID: "newest", Answer: big})
	s = &Assistant{}
	n = s.RestoreConversation(many)
	conv := s.Conversation()
	if n == 0 || n >= len(many) || conv[len(conv)-1].ID != "newest" {
		t.Fatalf("restored %d of %d, last %q: want the newest within %d bytes", n, len(many), conv[len(conv)-1].ID, MaxRestoredBytes)
	}
	if total := n * len(big); total > MaxRestoredBytes {
		t.Errorf("restored %d bytes of answers, over %d", total, MaxRestoredBytes)
	}
}

func ids(turns []Answer) string {
	var out []string
	for _, a := range turns {
		out = append(out, a.ID)
	}
	return strings.Join(out, " ")
}
