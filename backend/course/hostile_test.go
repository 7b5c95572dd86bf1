package course_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"vika/backend/course"
	"vika/backend/course/coursetest"
	"vika/backend/testpdf"
)

// TestHostileCourseFiles opens each of coursetest's crafted files: each
// one the course package must refuse is refused with its code, within
// seconds and without the memory it was made to take (checked by the
// heap's growth; `vika course open` is measured as a process in
// backend/cli). On main the generated column and the commented virtual
// table were opened and computed (6.2 GB, 150 MB rows), the FIFO blocked
// for ever and the extra objects were ignored.
func TestHostileCourseFiles(t *testing.T) {
	dir := t.TempDir()
	files := coursetest.Files(t, dir, testpdf.Text("The sampling distribution of the mean."), "setup")
	for _, f := range files {
		t.Run(f.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			cf, err := course.Open(ctx, f.Path, course.DefaultLimits)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			grew := int64(after.HeapSys) - int64(before.HeapSys)
			t.Logf("%s: %v in %v, heap grew %d MiB", f.Name, err, took.Round(time.Millisecond), grew>>20)
			if grew > 256<<20 {
				t.Errorf("the heap grew by %d MiB", grew>>20)
			}
			if f.Want == nil {
				if err != nil {
					t.Fatalf("refused: %v (its content is the consumer's to bound)", err)
				}
				cf.Close()
				return
			}
			if err == nil {
				cf.Close()
			}
			if !errors.Is(err, f.Want) {
				t.Fatalf("Open = %v, want %v", err, f.Want)
			}
		})
	}
}

// TestCourseCheckDeadlineAndCancel: the checks stop at CheckTime
// (ErrTooSlow, its own code) and when the caller cancels (context.Canceled).
func TestCourseCheckDeadlineAndCancel(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.vika")
	pdf := testpdf.Text("Hypothesis tests and their errors.")
	if err := course.Save(context.Background(), p, course.Course{Documents: []course.Document{coursetest.Doc("a.pdf", pdf, "s", nil)}}); err != nil {
		t.Fatal(err)
	}
	lim := course.DefaultLimits
	lim.CheckTime = time.Nanosecond
	if _, err := course.Open(context.Background(), p, lim); !errors.Is(err, course.ErrTooSlow) {
		t.Errorf("out of time: %v, want ErrTooSlow", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := course.Open(ctx, p, course.DefaultLimits); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// TestCourseNotARegularFile: a folder named like a course is refused as
// not a course (a FIFO is in coursetest's files).
func TestCourseNotARegularFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "folder.vika")
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := course.Open(context.Background(), p, course.DefaultLimits); !errors.Is(err, course.ErrNotCourse) {
		t.Errorf("a folder: %v, want ErrNotCourse", err)
	}
}
