package rag

import (
	"strings"
	"sync"
	"time"
)

// FlushInterval is how long answer text is gathered before it is sent as
// one delta event: at most about 20 delta events a second.
const FlushInterval = 50 * time.Millisecond

// batcher coalesces the deltas of an answer into events sent every
// FlushInterval, and sends every other event at once after the text
// gathered so far, so that the order of the stream is kept. Its emit is
// never called concurrently, and never after close.
type batcher struct {
	emit     func(Event)
	interval time.Duration

	mu     sync.Mutex
	buf    strings.Builder // guarded by mu: text not sent yet
	timer  *time.Timer     // guarded by mu: pending flush, nil when none
	closed bool            // guarded by mu
}

func newBatcher(emit func(Event), interval time.Duration) *batcher {
	if emit == nil {
		emit = func(Event) {}
	}
	return &batcher{emit: emit, interval: interval}
}

// delta gathers text; it is sent within the interval.
func (b *batcher) delta(text string) {
	if text == "" {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.buf.WriteString(text)
	if b.timer == nil {
		b.timer = time.AfterFunc(b.interval, b.tick)
	}
}

func (b *batcher) tick() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.timer = nil
	b.flushLocked()
}

// send sends the gathered text, then ev.
func (b *batcher) send(ev Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.flushLocked()
	b.emit(ev)
}

// close sends the gathered text, then last, and stops the batcher.
func (b *batcher) close(last Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.flushLocked()
	b.emit(last)
	b.closed = true
}

func (b *batcher) flushLocked() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	if b.closed || b.buf.Len() == 0 {
		return
	}
	text := b.buf.String()
	b.buf.Reset()
	b.emit(Event{Type: EventDelta, Text: text})
}
