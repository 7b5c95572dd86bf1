package ingest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// clock is a settable time for a Queue.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func testQueue(n int) (*Queue, *clock) {
	c := &clock{t: time.Unix(1e9, 0)}
	q := NewQueue(n, 30*time.Second)
	q.now = c.now
	return q, c
}

// enterAsync enters q from a goroutine; the channel receives the place
// once it is given.
func enterAsync(t *testing.T, q *Queue, ctx context.Context) <-chan *Place {
	t.Helper()
	ch := make(chan *Place, 1)
	go func() {
		p, err := q.Enter(ctx)
		if err != nil {
			p = nil
		}
		ch <- p
	}()
	waitWaiting(t, q)
	return ch
}

// waitWaiting waits until q has a waiting document more than before.
func waitWaiting(t *testing.T, q *Queue) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		q.mu.Lock()
		n := len(q.waiting)
		q.mu.Unlock()
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("nobody waits")
		}
		time.Sleep(time.Millisecond)
	}
}

func got(ch <-chan *Place) *Place {
	select {
	case p := <-ch:
		return p
	case <-time.After(50 * time.Millisecond):
		return nil
	}
}

// TestQueueShare: two long documents hold both places; a third waits.
// Before their share neither yields; past it the first to reach a yield
// gives its place to the third and waits at the back, and gets it back
// when the third leaves. The time it waited is not counted as held.
func TestQueueShare(t *testing.T) {
	ctx := context.Background()
	q, c := testQueue(2)
	a, _ := q.Enter(ctx)
	b, _ := q.Enter(ctx)
	small := enterAsync(t, q, ctx)
	if p := got(small); p != nil {
		t.Fatal("a third document got a place while two held both")
	}
	c.add(29 * time.Second)
	if err := a.Yield(ctx, func() { t.Error("parked before its share") }); err != nil {
		t.Fatal(err)
	}
	c.add(2 * time.Second)
	parked := false
	aBack := make(chan error, 1)
	go func() { aBack <- a.Yield(ctx, func() { parked = true }) }()
	s := <-small
	if s == nil {
		t.Fatal("the waiting document got no place when a long one yielded")
	}
	select {
	case <-aBack:
		t.Fatal("the yielding document came back while both places are held")
	case <-time.After(50 * time.Millisecond):
	}
	c.add(10 * time.Second) // the small document reads for 10 s, then leaves
	s.Leave()
	if err := <-aBack; err != nil || !parked {
		t.Fatalf("after the small one left: %v, parked %v", err, parked)
	}
	if h := a.Held(); h != 31*time.Second {
		t.Errorf("a held its place %v, want 31s (the 10 s it waited not counted)", h)
	}
	// b has held 41 s but nobody waits: it keeps its place.
	if err := b.Yield(ctx, func() { t.Error("parked with nobody waiting") }); err != nil {
		t.Fatal(err)
	}
	a.Leave()
	b.Leave()
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.free != 2 || len(q.waiting) != 0 {
		t.Errorf("free %d, waiting %d after all left", q.free, len(q.waiting))
	}
}

// TestQueueOrder: documents that take less than their share read in the
// order they came.
func TestQueueOrder(t *testing.T) {
	ctx := context.Background()
	q, _ := testQueue(1)
	first, _ := q.Enter(ctx)
	second := enterAsync(t, q, ctx)
	third := make(chan *Place, 1)
	go func() { p, _ := q.Enter(ctx); third <- p }()
	for {
		q.mu.Lock()
		n := len(q.waiting)
		q.mu.Unlock()
		if n == 2 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	first.Leave()
	if p := got(third); p != nil {
		t.Fatal("the third came before the second")
	}
	p := <-second
	p.Leave()
	if p := got(third); p == nil {
		t.Fatal("the third got no place")
	}
}

// TestQueueCancel: a document cancelled while it waits, to enter or to
// come back after a yield, leaves the queue and holds no place.
func TestQueueCancel(t *testing.T) {
	q, c := testQueue(1)
	a, _ := q.Enter(context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	b := enterAsync(t, q, ctx)
	cancel()
	if p := <-b; p != nil {
		t.Fatal("a cancelled Enter got a place")
	}
	c.add(time.Minute)
	ctx, cancel = context.WithCancel(context.Background())
	waiter := enterAsync(t, q, context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Yield(ctx, nil) }()
	w := <-waiter
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Yield after cancel: %v", err)
	}
	w.Leave()
	a.Leave()
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.free != 1 || len(q.waiting) != 0 {
		t.Errorf("free %d, waiting %d after all left", q.free, len(q.waiting))
	}
}
