package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"vika/backend/pdf"
	"vika/backend/testpdf"
)

// amplifyLimit is the memory the app and its workers must stay under: the
// kernel's limit on each process's data (RLIMIT_DATA, inherited by the
// workers), and the sum of their resident memory as sampled.
const amplifyLimit = 1536 << 20

// TestAmplificationUnderMemoryLimit runs `vika ingest --json` on the
// amplification files beside two real papers, as a child process under
// RLIMIT_DATA of 1.5 GiB (the app's writable private memory; its PDF
// workers inherit it and add their own RLIMIT_AS), the resident memory of
// the app and all its workers summed every 0.5 s: the sum stays under
// 1.5 GiB, the papers are added whole, and each amplification file is
// added cut to its budget (text, crops, OCR pages), with its warning. (Before the app's budgets,
// SharedText(200, 1M) alone took the app past 1.1 GiB and growing.) No
// kernel limit on the app and its workers together can be set here: see
// SECURITY.md.
func TestAmplificationUnderMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("minutes of PDF reading and OCR")
	}
	papers := []string{
		testpdf.SharedPDF(t, "shannon1948_mathematical_theory_of_communication.pdf"),
		testpdf.SharedPDF(t, "vaswani2017_attention_is_all_you_need.pdf"),
	}
	dir := t.TempDir()
	generated := map[string][]byte{
		"shared-text.pdf":    testpdf.SharedText(200, 1_000_000),
		"shared-figures.pdf": testpdf.SharedFigures(30, 24),
		"shared-scan.pdf":    scanOf(t, 600),
	}
	// What the warning of each says: the budget that cut it.
	cutBy := map[string]string{
		"shared-text.pdf":    "more text than Vika takes from one document",
		"shared-figures.pdf": "more tables, figures or passages than Vika keeps",
		"shared-scan.pdf":    "more scanned pages than Vika OCRs in one document",
	}
	args := []string{"ingest", "--json", papers[0]}
	for _, name := range []string{"shared-text.pdf", "shared-figures.pdf", "shared-scan.pdf"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, generated[name], 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	args = append(args, papers[1])
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	// The scan is bounded by its OCR pages (20 of 600: a minute of OCR).
	cmd.Env = append(os.Environ(), envHelper+"=data="+strconv.Itoa(amplifyLimit), "VIKA_MAX_OCR_PAGES=20")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var appPeak, allPeak int64
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for waiting := true; waiting; {
		select {
		case err = <-done:
			waiting = false
		case <-tick.C:
			app, all := treeRSS(cmd.Process.Pid)
			appPeak, allPeak = max(appPeak, app), max(allPeak, all)
		}
	}
	t.Logf("vika ingest ran %.0f s; peak resident memory: app %d MiB, app and workers %d MiB", time.Since(start).Seconds(), appPeak>>20, allPeak>>20)
	if err != nil {
		t.Fatalf("vika ingest: %v\nstderr:\n%s", err, tail(errOut.String(), 4000))
	}
	if allPeak == 0 || allPeak > amplifyLimit {
		t.Errorf("app and workers peaked at %d MiB, want under %d MiB", allPeak>>20, amplifyLimit>>20)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(args)-2 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(args)-2, out.String())
	}
	for _, line := range lines {
		var got struct {
			File        string `json:"file"`
			Pages       int    `json:"pages"`
			Chunks      int    `json:"chunks"`
			OCRPages    int    `json:"ocr_pages"`
			FailedPages []int  `json:"failed_pages"`
			Warning     string `json:"warning"`
			Error       string `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d pages, %d OCRed, %d failed or not read, %d passages, warning %q", got.File, got.Pages, got.OCRPages, len(got.FailedPages), got.Chunks, got.Warning)
		want, isGenerated := cutBy[got.File]
		switch {
		// The scan's pages all hold the same line: the chunker drops it
		// as a running header, so its OCR pages are what shows it read.
		case got.Error != "" || got.Chunks == 0 && got.OCRPages == 0:
			t.Errorf("%s: error %q, %d passages; want it added", got.File, got.Error, got.Chunks)
		case isGenerated && !strings.Contains(got.Warning, want):
			t.Errorf("%s: warning %q, want %q", got.File, got.Warning, want)
		case !isGenerated && (got.Warning != "" || len(got.FailedPages) > 0):
			t.Errorf("%s: warning %q, failed pages %v; want it whole", got.File, got.Warning, got.FailedPages)
		}
	}
}

func init() { helperSetup = limitData }

// limitData is the child's part: it sets its own RLIMIT_DATA from the
// helper's value ("data=N") before it runs the command; the workers it
// starts inherit it.
func limitData(v string) error {
	n, err := strconv.ParseUint(strings.TrimPrefix(v, "data="), 10, 64)
	if err != nil {
		return err
	}
	return syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: n, Max: n})
}

// treeRSS is the resident memory of pid and of pid with all its
// descendants, from /proc.
func treeRSS(pid int) (self, all int64) {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp := parentOf(p); pp > 0 {
			children[pp] = append(children[pp], p)
		}
	}
	self = rssOf(pid)
	for todo := []int{pid}; len(todo) > 0; {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		all += rssOf(p)
		todo = append(todo, children[p]...)
	}
	return self, all
}

// parentOf reads a process's parent id from /proc/<pid>/stat (0 if gone).
func parentOf(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0
	}
	pp, _ := strconv.Atoi(f[1])
	return pp
}

// rssOf reads a process's resident memory (VmRSS) in bytes (0 if gone).
func rssOf(pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// scanOf is a file of n scanned pages sharing one picture of text.
func scanOf(t *testing.T, n int) []byte {
	t.Helper()
	d, err := pdf.Open(testpdf.Text("The quick brown fox jumps over the lazy dog, page after page."), pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	img, err := d.Render(1, 150)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	data, err := testpdf.SharedScan(n, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
