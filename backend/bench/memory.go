package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"vika/backend/corpus"
	"vika/backend/ingest"
)

// MemoryResult is the peak resident memory of a child process ingesting
// one file with the real engine (OCR included), and what the ingest
// reported.
type MemoryResult struct {
	File    string   `json:"file"`
	Command []string `json:"command"`
	// PeakRSSMB is the child's peak resident set size in MB (10^6
	// bytes), from Source.
	PeakRSSMB float64 `json:"peak_rss_mb"`
	Source    string  `json:"source"`
	Aim       float64 `json:"aim_mb"`
	Met       bool    `json:"aim_met"`
	// Seconds is the child's wall time, start-up included.
	Seconds   float64                 `json:"seconds"`
	Pages     int                     `json:"pages"`
	PageTypes map[corpus.PageType]int `json:"page_types"`
	OCRPages  int                     `json:"ocr_pages"`
	Chunks    int                     `json:"chunks"`
	Lang      string                  `json:"lang"`
	Stages    ingest.Timings          `json:"stage_seconds"`
}

// childReport is the part of a `vika ingest --json` line read here.
type childReport struct {
	File      string                  `json:"file"`
	Pages     int                     `json:"pages"`
	PageTypes map[corpus.PageType]int `json:"page_types"`
	Lang      string                  `json:"lang"`
	OCRPages  int                     `json:"ocr_pages"`
	Chunks    int                     `json:"chunks"`
	Seconds   *ingest.Timings         `json:"seconds"`
	Error     string                  `json:"error"`
	// PeakRSSBytes is the child's own reading of its peak RSS at exit
	// (`vika bench ingest-child` adds it; plain `vika ingest` does not).
	PeakRSSBytes int64 `json:"peak_rss_bytes"`
}

// Sources of MemoryResult.PeakRSSMB.
const (
	SourceChild  = "VmHWM read by the child at exit"
	SourceRusage = "ru_maxrss of the child (on Linux it includes the parent's peak: execve keeps the high-water mark of the memory it replaces)"
)

// measureMemory runs opts.Child on opts.MemoryFile and takes the child's
// peak RSS from its report (peak_rss_bytes), else from the kernel's
// resource usage of the exited child.
func measureMemory(ctx context.Context, opts Options) (*MemoryResult, string, error) {
	if len(opts.Child) == 0 {
		return nil, "peak memory: no child command to run the ingest in", nil
	}
	path := opts.path(opts.MemoryFile)
	if path == "" {
		return nil, fmt.Sprintf("peak memory: %s is not in %s", opts.MemoryFile, opts.Dir), nil
	}
	args := append(append([]string(nil), opts.Child[1:]...), path)
	opts.logf("memory: %s %s", filepath.Base(opts.Child[0]), strings.Join(args, " "))
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, opts.Child[0], args...)
	cmd.Env = append(os.Environ(), opts.ChildEnv...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	if err != nil {
		return nil, "", fmt.Errorf("peak memory: %s: %v: %s", filepath.Base(path), err, lastLines(stderr.String(), 5))
	}
	var rep childReport
	if err := json.Unmarshal([]byte(lastJSON(stdout.String())), &rep); err != nil {
		return nil, "", fmt.Errorf("peak memory: cannot read the child's report: %v: %q", err, lastLines(stdout.String(), 3))
	}
	if rep.Error != "" {
		return nil, "", fmt.Errorf("peak memory: %s: %s", filepath.Base(path), rep.Error)
	}
	peak, source := rep.PeakRSSBytes, SourceChild
	if peak <= 0 {
		var ok bool
		if peak, ok = peakRSS(cmd.ProcessState); !ok {
			return nil, "peak memory: this system does not report a child's peak RSS", nil
		}
		source = SourceRusage
	}
	res := &MemoryResult{
		File: filepath.Base(path), Command: append([]string{filepath.Base(opts.Child[0])}, args[:len(args)-1]...),
		PeakRSSMB: megabytes(peak), Source: source, Aim: AimPeakRSSMB, Seconds: elapsed.Seconds(),
		Pages: rep.Pages, PageTypes: rep.PageTypes, OCRPages: rep.OCRPages, Chunks: rep.Chunks, Lang: rep.Lang,
	}
	res.Met = res.PeakRSSMB < AimPeakRSSMB
	if rep.Seconds != nil {
		res.Stages = *rep.Seconds
	}
	return res, "", nil
}

// lastJSON returns the last line of s that holds a JSON object (a
// library may print to stdout too).
func lastJSON(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), "{") {
			return lines[i]
		}
	}
	return s
}

// lastLines returns the last n lines of s, trimmed.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
