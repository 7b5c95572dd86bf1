package crash

import (
	"errors"
	"testing"

	"vika/backend/message"
)

func TestRecover(t *testing.T) {
	panics := func() (n int, err error) {
		defer Recover("a task", &err)
		var m map[string]int
		m["x"] = 1 // a nil map: a runtime panic
		return 1, nil
	}
	n, err := panics()
	if !errors.Is(err, ErrInternal) || message.Of(err).Code != message.Internal || n != 0 {
		t.Errorf("after a panic: %d, %v (%+v)", n, err, message.Of(err))
	}
	fine := func() (err error) {
		defer Recover("a task", &err)
		return errors.New("its own error")
	}
	if err := fine(); err == nil || errors.Is(err, ErrInternal) {
		t.Errorf("without a panic: %v", err)
	}
}
