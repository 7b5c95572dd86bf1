package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"vika/backend/course"
	"vika/backend/course/coursetest"
	"vika/backend/testpdf"
)

// TestCourseOpenCraftedFiles runs `vika course open --json` as a process
// on each of coursetest's hostile course files and on an honest course of
// the same PDF (the baseline, in the same run): each ends on its own with
// its refusal or with the PDF added and nothing of the bomb kept, and its
// peak resident memory stays within twice the baseline's plus 64 MiB.
// On main the generated column held 676 MiB and growing, the conversation
// bomb 1.8 GB, the processed bomb 2.7 GB, and the FIFO never returned.
// The seconds and peaks are logged (docs/measurements.md).
func TestCourseOpenCraftedFiles(t *testing.T) {
	dir := t.TempDir()
	pdfPath := filepath.Join(dir, "lecture.pdf")
	pdf := testpdf.Text("The sampling distribution of the mean narrows as the sample grows.")
	if err := os.WriteFile(pdfPath, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	honest := filepath.Join(dir, "honest.vika")
	if code := Run(context.Background(), []string{"course", "save", honest, pdfPath}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatalf("course save: exit %d", code)
	}
	saved, err := course.Read(context.Background(), honest, course.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	setup := saved.Documents[0].Setup // this Vika's: the bombs are read, not skipped
	files := coursetest.Files(t, dir, pdf, setup)

	base := openCourseProcess(t, honest)
	if base.code != 0 {
		t.Fatalf("the honest course: exit %d: %s", base.code, base.stderr)
	}
	t.Logf("%-18s exit %d in %5.2f s, peak %4d MiB (baseline)", "honest", base.code, base.seconds, base.peak>>20)
	for _, f := range files {
		r := openCourseProcess(t, f.Path)
		t.Logf("%-18s exit %d in %5.2f s, peak %4d MiB (%.2f× the baseline): %s", f.Name, r.code, r.seconds, r.peak>>20,
			float64(r.peak)/float64(base.peak), firstLine(r.stderr+r.stdout))
		if r.peak > base.peak+256<<20 {
			t.Errorf("%s: peak %d MiB, baseline %d MiB", f.Name, r.peak>>20, base.peak>>20)
		}
		switch {
		case f.Want != nil && (r.code == 0 || !strings.Contains(r.stderr, f.Want.Error())):
			t.Errorf("%s: exit %d, stderr %q; want refused: %v", f.Name, r.code, r.stderr, f.Want)
		case f.Want == nil && r.code != 0:
			t.Errorf("%s: exit %d: %s; want it opened, its bomb left out", f.Name, r.code, r.stderr)
		}
	}
}

type courseRun struct {
	code           int
	seconds        float64
	peak           int64 // bytes: the process's and its workers' largest resident set
	stdout, stderr string
}

// openCourseProcess runs `vika course open --json path` as a child process
// (this test binary, as vika) and measures it; a run past two minutes is
// killed and fails the test.
func openCourseProcess(t *testing.T, path string) courseRun {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "course", "open", "--json", path)
	cmd.Env = append(os.Environ(), envHelper+"=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err = cmd.Run()
	r := courseRun{seconds: time.Since(start).Seconds(), stdout: out.String(), stderr: errOut.String()}
	if ctx.Err() != nil {
		t.Fatalf("%s: still running after two minutes", filepath.Base(path))
	}
	if cmd.ProcessState == nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	r.code = cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peak = ru.Maxrss << 10 // KiB on Linux
	}
	return r
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s[:min(len(s), 120)]
}
