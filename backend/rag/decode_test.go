package rag

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"vika/backend/jsonbound"
)

// TestDecodeConversationBounded: a course's conversation of a million
// empty turns (2.9 MiB; 1.8 GB peak when decoded whole, on main) is
// refused after MaxRestoredTurns of them, its heap growth small; an honest
// one decodes whole.
func TestDecodeConversationBounded(t *testing.T) {
	bomb := []byte("[" + strings.Repeat("{},", 1_000_000) + "{}]")
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	turns, err := DecodeConversation(bomb)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, jsonbound.ErrBounds) || turns != nil {
		t.Fatalf("DecodeConversation = %d turns, %v", len(turns), err)
	}
	if grew := int64(after.TotalAlloc - before.TotalAlloc); grew > 64<<20 {
		t.Errorf("allocated %d MiB decoding it", grew>>20)
	}
	// A megabyte a turn of empty sources, 32 turns: within the turn
	// bounds, 4.2 GB of heap once decoded (the reviewer's case).
	sources := []byte("[" + strings.Repeat(`{"sources":[`+strings.Repeat("{},", 300_000)+`{}]},`, 31) + `{}]`)
	runtime.GC()
	runtime.ReadMemStats(&before)
	turns, err = DecodeConversation(sources)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, jsonbound.ErrBounds) || turns != nil {
		t.Fatalf("empty sources: %d turns, %v", len(turns), err)
	}
	if grew := int64(after.TotalAlloc - before.TotalAlloc); grew > 64<<20 {
		t.Errorf("allocated %d MiB on the empty sources", grew>>20)
	}
	big := []byte(`[{"question":"` + strings.Repeat("x", MaxRestoredTurnBytes) + `"}]`)
	if _, err := DecodeConversation(big); !errors.Is(err, jsonbound.ErrBounds) {
		t.Errorf("a turn over MaxRestoredTurnBytes: %v", err)
	}
	turns, err = DecodeConversation([]byte(`[{"question":"What is a p-value?","answer":"The probability [a.pdf p.2]."},{"question":"And a CI?"}]`))
	if err != nil || len(turns) != 2 || turns[1].Question != "And a CI?" {
		t.Fatalf("honest: %+v, %v", turns, err)
	}
}
