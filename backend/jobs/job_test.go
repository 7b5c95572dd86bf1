package jobs

import (
	"context"
	"errors"
	"testing"

	"vika/backend/crash"
	"vika/backend/message"
)

// ended collects what end received.
type ended struct {
	ctx context.Context
	err error
}

func collect() (func(context.Context, error), <-chan ended) {
	ch := make(chan ended, 1)
	return func(ctx context.Context, err error) { ch <- ended{ctx, err} }, ch
}

func TestStartRunsAndEnds(t *testing.T) {
	var r Runner
	end, ch := collect()
	want := errors.New("the task's own error")
	id, err := r.Start(context.Background(), "q-1", func(context.Context) error { return want }, end)
	if err != nil || id != "q-1" {
		t.Fatalf("Start = %q, %v", id, err)
	}
	if got := <-ch; !errors.Is(got.err, want) {
		t.Errorf("end got %v, want the task's error", got.err)
	}
	r.Close()
	if r.Running("q-1") || r.Cancel("q-1") {
		t.Error("a finished task still counts as running")
	}
}

func TestPickedIDs(t *testing.T) {
	r := Runner{Prefix: "job-"}
	defer r.Close()
	a, _ := r.Start(context.Background(), r.NewID(), func(context.Context) error { return nil }, nil)
	b, _ := r.Start(context.Background(), r.NewID(), func(context.Context) error { return nil }, nil)
	if a != "job-1" || b != "job-2" {
		t.Errorf("picked ids %q, %q, want job-1, job-2", a, b)
	}
}

func TestBadIDs(t *testing.T) {
	var r Runner
	block := make(chan struct{})
	if _, err := r.Start(context.Background(), "busy", func(ctx context.Context) error { <-block; return nil }, nil); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"busy", "", "answer:../x", "a b", string(make([]byte, 65))} {
		_, err := r.Start(context.Background(), id, func(context.Context) error { return nil }, nil)
		if !errors.Is(err, ErrBadID) || message.Of(err).Code != message.BadID {
			t.Errorf("Start(%q) = %v, want ErrBadID with its code", id, err)
		}
	}
	close(block)
	r.Close()

	var named Runner
	if _, err := named.Start(context.Background(), "bge-small-en-v1.5", func(context.Context) error { return nil }, nil); err != nil {
		t.Errorf("a model's name refused: %v", err)
	}
	named.Close()
}

func TestCancel(t *testing.T) {
	var r Runner
	end, ch := collect()
	started := make(chan struct{})
	if _, err := r.Start(context.Background(), "long", func(ctx context.Context) error {
		close(started)
		<-ctx.Done()
		return ctx.Err()
	}, end); err != nil {
		t.Fatal(err)
	}
	<-started
	if !r.Running("long") || !r.Cancel("long") {
		t.Fatal("the task is not running")
	}
	got := <-ch
	if !errors.Is(got.err, context.Canceled) || got.ctx.Err() == nil {
		t.Errorf("end after Cancel: %v (ctx %v), want cancelled", got.err, got.ctx.Err())
	}
	if r.Cancel("unknown") {
		t.Error("Cancel of an unknown id reported true")
	}
	r.Close()
}

func TestCancelAllThenStart(t *testing.T) {
	var r Runner
	defer r.Close()
	end, ch := collect()
	started := make(chan struct{})
	r.Start(context.Background(), "a", func(ctx context.Context) error { close(started); <-ctx.Done(); return ctx.Err() }, end)
	<-started
	r.CancelAll()
	if got := <-ch; !errors.Is(got.err, context.Canceled) {
		t.Errorf("after CancelAll: %v", got.err)
	}
	end2, ch2 := collect()
	if _, err := r.Start(context.Background(), "b", func(context.Context) error { return nil }, end2); err != nil {
		t.Fatalf("a start after CancelAll: %v", err)
	}
	if got := <-ch2; got.err != nil {
		t.Errorf("a task after CancelAll: %v", got.err)
	}
}

func TestCloseWaitsAndRefuses(t *testing.T) {
	var r Runner
	endedAll := false
	started := make(chan struct{})
	r.Start(context.Background(), "a", func(ctx context.Context) error { close(started); <-ctx.Done(); return nil },
		func(context.Context, error) { endedAll = true })
	<-started
	r.Close()
	if !endedAll {
		t.Error("Close returned before the task's end")
	}
	if _, err := r.Start(context.Background(), "b", func(context.Context) error { return nil }, nil); !errors.Is(err, ErrClosed) || message.Of(err).Code != message.SessionClosed {
		t.Errorf("Start after Close = %v, want ErrClosed", err)
	}
}

func TestPanicContained(t *testing.T) {
	var r Runner
	end, ch := collect()
	r.Start(context.Background(), "p", func(context.Context) error { panic("a bug reached by odd input") }, end)
	got := <-ch
	if !errors.Is(got.err, crash.ErrInternal) || message.Of(got.err).Code != message.Internal {
		t.Errorf("a panicking task ended with %v, want crash.ErrInternal", got.err)
	}
	// A panic in end is contained too; the runner goes on.
	r.Start(context.Background(), "q", func(context.Context) error { return nil }, func(context.Context, error) { panic("in end") })
	end2, ch2 := collect()
	r.Start(context.Background(), "r", func(context.Context) error { return nil }, end2)
	if got := <-ch2; got.err != nil {
		t.Errorf("after a panic in end: %v", got.err)
	}
	r.Close()
}
