//go:build tune

package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"vika/backend/ingest"
	"vika/backend/ocr"
	"vika/backend/testpdf"
)

// envMeasure makes the test binary ingest the files listed in it (after
// "mode:") and print a measureReport: the measurement's child.
const envMeasure = "VIKA_SANDBOX_MEASURE"

// measureReport is what one child measured.
type measureReport struct {
	Seconds   float64 `json:"seconds"`
	Pages     int     `json:"pages"`
	OCRPages  int     `json:"ocr_pages"`
	Failed    int     `json:"failed_pages"`
	AppPeak   int64   `json:"app_peak_rss"`
	WorkerMax int64   `json:"worker_peak_rss"`
}

func init() {
	measureChild = func() (bool, int) {
		v := os.Getenv(envMeasure)
		if v == "" {
			return false, 0
		}
		mode, list, _ := strings.Cut(v, ":")
		rep, err := ingestAll(mode, strings.Split(list, "\n"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return true, 1
		}
		json.NewEncoder(os.Stdout).Encode(rep)
		return true, 0
	}
}

// ingestAll ingests files (ingest.Run: extraction, OCR, language, chunks)
// in process or through the workers, two OCR streams either way.
func ingestAll(mode string, files []string) (measureReport, error) {
	opts := ingest.Options{OCRParallel: DefaultWorkers}
	var o *Opener
	if mode == "worker" {
		o = New(Config{})
		opts.Opener = o
	} else {
		pool, err := ocr.NewPool(ocr.Config{Workers: DefaultWorkers})
		if err != nil {
			return measureReport{}, err
		}
		defer pool.Close()
		opts.OCR = pool
	}
	var rep measureReport
	start := time.Now()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return rep, err
		}
		res, err := ingest.Run(context.Background(), filepath.Base(f), data, opts, nil)
		if err != nil {
			return rep, fmt.Errorf("%s: %w", f, err)
		}
		rep.Pages += res.Doc.Pages
		rep.OCRPages += res.Doc.OCRPages
		rep.Failed += len(res.Doc.FailedPages)
	}
	rep.Seconds = time.Since(start).Seconds()
	if o != nil {
		o.Close()
		rep.WorkerMax = o.PeakWorkerRSS()
	}
	rep.AppPeak = selfPeak()
	return rep, nil
}

// selfPeak is this process's peak resident set (VmHWM), in bytes.
func selfPeak() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// TestMeasureWorkerCost ingests every PDF of ../shared/data/pdfs in
// process and through the workers, each mode in a fresh child process, in
// interleaved rounds (in, worker, worker, in, ...), and reports the
// throughput ratio (in-process time / worker time; the aim is >= 0.9)
// and the peak resident memory of the app and of the workers.
//
//	go test -tags "tune webkit2_41" -run TestMeasureWorkerCost -v -timeout 60m ./backend/sandbox/
func TestMeasureWorkerCost(t *testing.T) {
	dir := filepath.Dir(testpdf.SharedPDF(t, "devlin2019_bert.pdf"))
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	rounds, _ := strconv.Atoi(os.Getenv("VIKA_MEASURE_ROUNDS"))
	if rounds <= 0 {
		rounds = 2
	}
	exe, _ := os.Executable()
	total := map[string]float64{}
	for r := 0; r < rounds; r++ {
		order := []string{"inprocess", "worker"}
		if r%2 == 1 {
			order = []string{"worker", "inprocess"}
		}
		for _, mode := range order {
			cmd := exec.Command(exe)
			cmd.Env = append(os.Environ(), envMeasure+"="+mode+":"+strings.Join(files, "\n"))
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s child: %v\n%s", mode, err, out)
			}
			var rep measureReport
			if err := json.Unmarshal(out, &rep); err != nil {
				t.Fatalf("%s child: %v: %s", mode, err, out)
			}
			total[mode] += rep.Seconds
			t.Logf("round %d %-9s %6.1f s, %d pages (%d OCRed, %d failed), app peak RSS %d MiB, worker peak RSS %d MiB",
				r+1, mode, rep.Seconds, rep.Pages, rep.OCRPages, rep.Failed, rep.AppPeak>>20, rep.WorkerMax>>20)
		}
	}
	ratio := total["inprocess"] / total["worker"]
	t.Logf("%d files, %d rounds: in process %.1f s, worker %.1f s; throughput ratio worker/in-process %.3f (aim >= 0.9)",
		len(files), rounds, total["inprocess"], total["worker"], ratio)
	if ratio < 0.9 {
		t.Errorf("throughput ratio %.3f, below the aim of 0.9", ratio)
	}
}
