package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Aims of the drop benchmark (issue "from drop to first answer").
const (
	// AimSearchableShare: every PDF searchable by BM25 within this share
	// of the original Python stack's ingest time.
	AimSearchableShare = 1.0 / 6
	// AimVectorsSeconds: every vector ready within this many seconds.
	AimVectorsSeconds = 90
	// AimCPURatio: user+system CPU over wall time while adding (2 cores).
	AimCPURatio = 1.8
)

// DropDoc is what one PDF of the drop did, times in seconds from the
// drop.
type DropDoc struct {
	File     string `json:"file"`
	Pages    int    `json:"pages"`
	OCRPages int    `json:"ocr_pages"`
	Chunks   int    `json:"chunks"`
	// FirstPassages is when the first of its passages was searchable by
	// BM25 (a document being OCRed is searchable by its pages read so
	// far); Searchable when all of its pages were.
	FirstPassages float64 `json:"first_passages_s"`
	Searchable    float64 `json:"searchable_s"`
	Vectors       float64 `json:"vectors_s"`
	Error         string  `json:"error,omitempty"`
}

// Drop records the timeline of PDFs dropped into one session at once.
// Its methods are safe for concurrent use.
type Drop struct {
	start time.Time
	mu    sync.Mutex
	docs  map[string]*DropDoc // guarded by mu
}

// NewDrop starts the clock.
func NewDrop() *Drop { return &Drop{start: time.Now(), docs: map[string]*DropDoc{}} }

func (d *Drop) doc(file string) *DropDoc {
	if d.docs[file] == nil {
		d.docs[file] = &DropDoc{File: file}
	}
	return d.docs[file]
}

// Searchable records that file became searchable by BM25 now: by the
// words of all its pages, or of all but reading of them.
func (d *Drop) Searchable(file string, pages, ocrPages, chunks, reading int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	x := d.doc(file)
	now := time.Since(d.start).Seconds()
	if x.FirstPassages == 0 {
		x.FirstPassages = now
	}
	if reading == 0 {
		x.Searchable, x.Pages, x.OCRPages, x.Chunks = now, pages, ocrPages, chunks
	}
}

// Done records that file's vectors are ready now, or why it failed.
func (d *Drop) Done(file string, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	x := d.doc(file)
	if err != nil {
		x.Error = err.Error()
		return
	}
	x.Vectors = time.Since(d.start).Seconds()
}

// Since is the time since the drop.
func (d *Drop) Since() time.Duration { return time.Since(d.start) }

// DropResult is the report of `vika bench drop`.
type DropResult struct {
	Dir   string    `json:"dir"`
	CPUs  int       `json:"cpus"`
	Docs  []DropDoc `json:"documents"`
	Pages int       `json:"pages"`
	OCR   int       `json:"ocr_pages"`
	// FirstSearchable, AllSearchable and AllVectors are seconds from the
	// drop to the first document searchable by BM25 (all its pages), to
	// every one, and to every vector indexed; AllFirstPassages to every
	// document searchable by at least some of its pages.
	FirstSearchable  float64 `json:"first_searchable_s"`
	AllSearchable    float64 `json:"all_searchable_s"`
	AllFirstPassages float64 `json:"all_first_passages_s"`
	AllVectors       float64 `json:"all_vectors_s"`
	// UserCPU and SysCPU are this process's and its PDF workers' CPU
	// seconds over the drop; CPURatio is their sum over AllVectors.
	UserCPU  float64 `json:"user_cpu_s"`
	SysCPU   float64 `json:"sys_cpu_s"`
	CPURatio float64 `json:"cpu_ratio"`
	// WorkerCPU is the part of UserCPU+SysCPU spent in the PDF workers
	// (pages, OCR, crops); EmbedCPU the part in the background threads
	// (the passages' vectors, lowprio); the rest is the app's other work.
	// -1 where not measured.
	WorkerCPU float64 `json:"worker_cpu_s"`
	EmbedCPU  float64 `json:"embed_cpu_s"`
	// PeakRSSMB is this process's peak RSS, WorkerPeakRSSMB the largest
	// PDF worker's (MB, 10^6 bytes).
	PeakRSSMB       float64 `json:"peak_rss_mb"`
	WorkerPeakRSSMB float64 `json:"worker_peak_rss_mb"`
	// SearchDuring times a search a second while the PDFs went in,
	// SearchAfter the same questions once every vector was in (ms).
	SearchDuring Latencies  `json:"search_during_ms"`
	SearchAfter  Latencies  `json:"search_after_ms"`
	Reference    *Reference `json:"reference,omitempty"`
	// SearchableShare is AllSearchable over the reference's wall time,
	// PartlyShare AllFirstPassages over it.
	SearchableShare float64  `json:"searchable_share,omitempty"`
	PartlyShare     float64  `json:"partly_share,omitempty"`
	Aims            []string `json:"aims"`
}

// Finish fills r from the drop's timeline.
func (r *DropResult) Finish(d *Drop) {
	d.mu.Lock()
	defer d.mu.Unlock()
	r.Docs = r.Docs[:0]
	r.FirstSearchable = -1
	for _, x := range d.docs {
		r.Docs = append(r.Docs, *x)
		if x.Error != "" {
			continue
		}
		r.Pages += x.Pages
		r.OCR += x.OCRPages
		if r.FirstSearchable < 0 || x.Searchable < r.FirstSearchable {
			r.FirstSearchable = x.Searchable
		}
		r.AllSearchable = max(r.AllSearchable, x.Searchable)
		r.AllFirstPassages = max(r.AllFirstPassages, x.FirstPassages)
		r.AllVectors = max(r.AllVectors, x.Vectors)
	}
	slices.SortFunc(r.Docs, func(a, b DropDoc) int { return strings.Compare(a.File, b.File) })
}

// Judge sets the aims met or missed.
func (r *DropResult) Judge() {
	r.Aims = nil
	add := func(ok bool, s string, a ...any) {
		mark := "MET"
		if !ok {
			mark = "MISSED"
		}
		r.Aims = append(r.Aims, mark+": "+fmt.Sprintf(s, a...))
	}
	if ref := r.Reference; ref != nil && ref.Error == "" && ref.WallSeconds > 0 {
		r.SearchableShare = r.AllSearchable / ref.WallSeconds
		r.PartlyShare = r.AllFirstPassages / ref.WallSeconds
		add(r.SearchableShare <= AimSearchableShare, "all searchable in %.3f of the original stack's ingest (aim <= %.3f)", r.SearchableShare, AimSearchableShare)
	}
	add(r.AllVectors <= AimVectorsSeconds, "all vectors in %.1f s (aim <= %d s)", r.AllVectors, AimVectorsSeconds)
	add(r.CPURatio >= AimCPURatio, "user+sys/wall %.2f (aim >= %.1f)", r.CPURatio, AimCPURatio)
}

// Latencies summarises searches' milliseconds.
type Latencies struct {
	Samples []float64 `json:"samples,omitempty"`
	P50     float64   `json:"p50"`
	P95     float64   `json:"p95"`
	Max     float64   `json:"max"`
}

// Summarise sorts ms and returns its summary.
func Summarise(ms []float64) Latencies {
	l := Latencies{Samples: slices.Sorted(slices.Values(ms))}
	if n := len(l.Samples); n > 0 {
		at := func(q float64) float64 { return l.Samples[min(n-1, int(q*float64(n)))] }
		l.P50, l.P95, l.Max = at(0.5), at(0.95), l.Samples[n-1]
	}
	return l
}

// Reference is the original Python stack's ingest of the same folder
// (vika_ref's bench.py, one vika_ingest.py process per PDF).
type Reference struct {
	Command     []string `json:"command"`
	WallSeconds float64  `json:"wall_s"`
	CPUSeconds  float64  `json:"cpu_s"`
	CPURatio    float64  `json:"cpu_ratio"`
	Pages       int      `json:"pages"`
	OCRCalls    int      `json:"tesseract_calls"`
	Error       string   `json:"error,omitempty"`
}

// RefWorkers and RefOMPThreads are the reference's tuned settings.
const (
	RefWorkers    = 2
	RefOMPThreads = 1
)

// DefaultRefDir is vika_ref next to the data set dir (../shared/tools).
func DefaultRefDir(pdfDir string) string {
	return filepath.Join(filepath.Dir(filepath.Dir(pdfDir)), "tools", "vika_ref")
}

// RunReference runs refDir's bench.py over pdfDir with RefWorkers workers
// and RefOMPThreads OpenMP thread under /usr/bin/python3, its output in a
// temporary folder, progress lines to progress. A missing or failing
// reference is reported in Reference.Error, not as an error.
func RunReference(ctx context.Context, refDir, pdfDir string, progress io.Writer) *Reference {
	tmp, err := os.MkdirTemp("", "vika-ref-")
	if err != nil {
		return &Reference{Error: err.Error()}
	}
	defer os.RemoveAll(tmp)
	ref := &Reference{Command: []string{"/usr/bin/python3", filepath.Join(refDir, "bench.py"), pdfDir, "--out", tmp,
		"--workers", fmt.Sprint(RefWorkers), "--omp-thread-limit", fmt.Sprint(RefOMPThreads), "--tag", "ref"}}
	if _, err := os.Stat(ref.Command[1]); err != nil {
		ref.Error = fmt.Sprintf("the original stack is not there: %v", err)
		return ref
	}
	cmd := exec.CommandContext(ctx, ref.Command[0], ref.Command[1:]...)
	cmd.Stdout, cmd.Stderr = progress, progress
	start := time.Now()
	if err := cmd.Run(); err != nil {
		ref.Error = fmt.Sprintf("%s: %v (are python3-fitz, python3-langdetect, python3-pil and time installed? see scripts/setup/apt-packages.txt)", strings.Join(ref.Command, " "), err)
		return ref
	}
	wall := time.Since(start).Seconds()
	if ps := cmd.ProcessState; ps != nil {
		ref.CPUSeconds = (ps.UserTime() + ps.SystemTime()).Seconds()
	}
	var sum struct {
		BenchWall float64 `json:"bench_wall_s"`
		Totals    struct {
			Pages int `json:"pages"`
		} `json:"totals"`
		Documents []struct {
			Calls int `json:"tesseract_calls"`
		} `json:"documents"`
	}
	b, err := os.ReadFile(filepath.Join(tmp, "ref", "run_summary.json"))
	if err == nil {
		err = json.Unmarshal(b, &sum)
	}
	if err != nil {
		ref.Error = fmt.Sprintf("reading the reference's summary: %v", err)
		return ref
	}
	ref.WallSeconds, ref.Pages = sum.BenchWall, sum.Totals.Pages
	if ref.WallSeconds <= 0 {
		ref.WallSeconds = wall
	}
	for _, d := range sum.Documents {
		ref.OCRCalls += d.Calls
	}
	ref.CPURatio = ref.CPUSeconds / wall
	return ref
}

// WriteDrop prints r for a person.
func WriteDrop(w io.Writer, r DropResult) error {
	p := &printer{w: w}
	p.f("Vika drop benchmark: %d PDFs of %s added at once to one session (%d CPUs)\n", len(r.Docs), r.Dir, r.CPUs)
	p.f("%-58s %6s %5s %7s %10s %12s %10s\n", "file", "pages", "OCR", "chunks", "partly s", "searchable s", "vectors s")
	for _, d := range r.Docs {
		if d.Error != "" {
			p.f("%-58s failed: %s\n", d.File, d.Error)
			continue
		}
		p.f("%-58s %6d %5d %7d %10.1f %12.1f %10.1f\n", d.File, d.Pages, d.OCRPages, d.Chunks, d.FirstPassages, d.Searchable, d.Vectors)
	}
	p.f("pages %d (OCR %d)\n", r.Pages, r.OCR)
	p.f("first searchable by BM25: %.1f s; all searchable: %.1f s (each by some of its pages: %.1f s); all vectors ready: %.1f s\n", r.FirstSearchable, r.AllSearchable, r.AllFirstPassages, r.AllVectors)
	p.f("CPU user %.1f s + sys %.1f s over %.1f s wall: user+sys/wall %.2f\n", r.UserCPU, r.SysCPU, r.AllVectors, r.CPURatio)
	if r.WorkerCPU >= 0 && r.EmbedCPU >= 0 {
		p.f("CPU by part: PDF workers (pages, OCR) %.1f s; embedding (background threads) %.1f s; the rest of the app %.1f s\n",
			r.WorkerCPU, r.EmbedCPU, r.UserCPU+r.SysCPU-r.WorkerCPU-r.EmbedCPU)
	}
	p.f("peak RSS: %.0f MB (this process), %.0f MB (largest PDF worker)\n", r.PeakRSSMB, r.WorkerPeakRSSMB)
	d, a := r.SearchDuring, r.SearchAfter
	p.f("a search a second while adding: %d searches, p50 %.0f ms, p95 %.0f ms, max %.0f ms; the same questions after: p50 %.0f ms, p95 %.0f ms (during/after p50 %.2f)\n",
		len(d.Samples), d.P50, d.P95, d.Max, a.P50, a.P95, d.P50/max(a.P50, 1e-9))
	if ref := r.Reference; ref != nil {
		if ref.Error != "" {
			p.f("original stack: not measured: %s\n", ref.Error)
		} else {
			p.f("original stack (%s): %.1f s wall, %d pages, %d tesseract calls, CPU/wall %.2f\n", strings.Join(ref.Command[1:2], " "), ref.WallSeconds, ref.Pages, ref.OCRCalls, ref.CPURatio)
			p.f("all searchable / original ingest: %.3f (%.1fx faster); each searchable by some of its pages: %.3f\n", r.SearchableShare, 1/r.SearchableShare, r.PartlyShare)
		}
	}
	for _, a := range r.Aims {
		p.f("%s\n", a)
	}
	return p.err
}
