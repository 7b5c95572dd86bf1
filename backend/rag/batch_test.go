package rag

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"vika/backend/llm"
)

// TestBatcherCoalesces: many deltas in quick succession become a few
// events; the text is complete, in order, and a notice comes after the
// text sent before it.
func TestBatcherCoalesces(t *testing.T) {
	var ev events
	b := newBatcher(ev.emit, 30*time.Millisecond)
	var want strings.Builder
	for i := range 200 {
		s := string(rune('a' + i%26))
		want.WriteString(s)
		b.delta(s)
		if i == 100 {
			b.send(Event{Type: EventNotice, Notice: &llm.Notice{Message: "n"}})
		}
	}
	time.Sleep(60 * time.Millisecond) // the timer sends the rest
	b.close(Event{Type: EventDone})
	b.delta("late")
	b.send(Event{Type: EventNotice})
	if ev.text() != want.String() {
		t.Errorf("text = %q", ev.text())
	}
	types := ev.types()
	if len(types) > 6 || types[len(types)-1] != EventDone {
		t.Errorf("events %v", types)
	}
	var before strings.Builder
	for _, e := range ev.all() {
		if e.Type == EventNotice {
			break
		}
		before.WriteString(e.Text)
	}
	if before.String() != want.String()[:101] {
		t.Errorf("text before the notice = %q", before.String())
	}
}

func TestEventJSON(t *testing.T) {
	tests := []struct {
		ev   Event
		want string
	}{
		{Event{Type: EventStatus, Stage: StageRetrieving}, `{"type":"status","stage":"retrieving"}`},
		{Event{Type: EventSources}, `{"type":"sources","sources":[]}`},
		{Event{Type: EventDelta, Text: "x"}, `{"type":"delta","text":"x"}`},
		{Event{Type: EventError, Error: "No model could answer."}, `{"type":"error","error":"No model could answer.","answer":null}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.ev)
		if err != nil || string(b) != tt.want {
			t.Errorf("%s: %s, %v; want %s", tt.ev.Type, b, err, tt.want)
		}
	}
}
