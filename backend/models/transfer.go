package models

import (
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// validatorExt is the suffix of the file, beside a .part, that keeps the
// validator of the response that began it, for If-Range on resume.
const validatorExt = ".validator"

// validatorOf is what If-Range may carry for a response: its ETag when it
// is strong (If-Range refuses weak ones), else its Last-Modified, else "".
func validatorOf(h http.Header) string {
	if et := strings.TrimSpace(h.Get("ETag")); et != "" && !strings.HasPrefix(et, "W/") {
		return et
	}
	return strings.TrimSpace(h.Get("Last-Modified"))
}

func readValidator(part string) string {
	b, err := os.ReadFile(part + validatorExt)
	if err != nil {
		return ""
	}
	v := strings.TrimSpace(string(b))
	if strings.ContainsAny(v, "\r\n") {
		return ""
	}
	return v
}

// writeValidator records v for part ("" removes the record: no resume).
func writeValidator(part, v string) error {
	if v == "" || strings.ContainsAny(v, "\r\n") {
		err := os.Remove(part + validatorExt)
		if os.IsNotExist(err) {
			err = nil
		}
		return err
	}
	return os.WriteFile(part+validatorExt, []byte(v), 0o644)
}

// discard removes a partial file and its validator.
func discard(part string) {
	os.Remove(part)
	os.Remove(part + validatorExt)
}

// MaxBytes is the most bytes f may have: its pinned size.
func (m Model) MaxBytes(f File) int64 { return f.Size }

// idleReader is a body that calls onIdle when no byte arrives for idle.
type idleReader struct {
	r     io.Reader
	idle  time.Duration
	timer *time.Timer
	once  sync.Once
}

func newIdleReader(r io.Reader, idle time.Duration, onIdle func()) *idleReader {
	return &idleReader{r: r, idle: idle, timer: time.AfterFunc(idle, onIdle)}
}

func (ir *idleReader) Read(p []byte) (int, error) {
	n, err := ir.r.Read(p)
	if n > 0 {
		ir.timer.Reset(ir.idle)
	}
	return n, err
}

func (ir *idleReader) stop() { ir.once.Do(func() { ir.timer.Stop() }) }
