package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"vika/backend/bench"
	"vika/backend/engine"
	"vika/backend/lowprio"
	"vika/backend/session"
)

const dropUsage = "Usage: vika bench drop [--json] [--pdfs DIR] [--ref DIR | --no-ref]"

// runBenchDrop adds every PDF of a folder to one session at once, as a
// student dropping a course pack does, and reports when the first and
// the last became searchable by BM25 and when every vector was ready,
// the CPU use and peak memory; then it runs the original Python stack's
// ingest of the same folder for the ratio.
func runBenchDrop(ctx context.Context, args []string, out, errOut io.Writer) error {
	fs := newFlagSet("bench drop", errOut)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	dir := fs.String("pdfs", "", "folder of PDFs to drop (default: ../shared/data/pdfs next to the repository root)")
	refDir := fs.String("ref", "", "the original stack's vika_ref folder (default: ../tools/vika_ref next to the data folder)")
	noRef := fs.Bool("no-ref", false, "do not run the original stack")
	fs.Usage = func() {
		fmt.Fprintln(errOut, dropUsage)
		fmt.Fprintln(errOut, "\nAdds every PDF of DIR to one session at once and reports the time to the first and to every")
		fmt.Fprintln(errOut, "document searchable by BM25, to every vector ready, user+sys/wall CPU and peak RSS; then runs")
		fmt.Fprintf(errOut, "the original stack's bench.py --workers %d --omp-thread-limit %d on DIR for the ratio. Progress goes to stderr.\n\n", bench.RefWorkers, bench.RefOMPThreads)
		fs.PrintDefaults()
	}
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, rest)
	}
	if *dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		if *dir, err = bench.DefaultDir(wd); err != nil {
			return err
		}
	}
	if *dir, err = filepath.Abs(*dir); err != nil {
		return err
	}
	paths, err := filepath.Glob(filepath.Join(*dir, "*.pdf"))
	if err != nil || len(paths) == 0 {
		return fmt.Errorf("%w: no *.pdf in %s", bench.ErrNoData, *dir)
	}
	sort.Strings(paths)

	r, err := dropInto(ctx, paths, errOut)
	if err != nil {
		return err
	}
	r.Dir = *dir
	if !*noRef {
		// Vika's part first, so that it is not lost if the reference
		// (minutes on a loaded machine) is stopped.
		r.Judge()
		fmt.Fprintln(errOut, "\nVika's part, before the original stack runs:")
		if err := bench.WriteDrop(errOut, r); err != nil {
			return err
		}
		if *refDir == "" {
			*refDir = bench.DefaultRefDir(*dir)
		}
		fmt.Fprintf(errOut, "running the original stack on %s (one process per PDF)...\n", *dir)
		r.Reference = bench.RunReference(ctx, *refDir, *dir, errOut)
	}
	r.Judge()
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return bench.WriteDrop(out, r)
}

// dropInto opens a session (no document cache), adds paths at once and
// waits for every vector.
func dropInto(ctx context.Context, paths []string, errOut io.Writer) (bench.DropResult, error) {
	eng, err := openSession(ctx, "", false, false, errOut)
	if err != nil {
		return bench.DropResult{}, err
	}
	defer eng.Close()
	if err := eng.DenseUnavailable(); err != nil {
		return bench.DropResult{}, fmt.Errorf("the drop benchmark measures the vectors too: %w", err)
	}
	user0, sys0, _, cpuOK := bench.CPUTime()
	kids0, kidsOK := bench.ChildCPU()
	embed0, embedOK := lowprio.CPU()
	drop := bench.NewDrop()
	var wg sync.WaitGroup
	for _, p := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := filepath.Base(p)
			rep, err := eng.Ingest(ctx, p, func(pr engine.Progress) {
				if pr.Stage == engine.StageSearchable && pr.Doc != nil {
					drop.Searchable(name, pr.Doc.Pages, pr.Doc.OCRPages, pr.Doc.Chunks, pr.Doc.Reading)
					if pr.Doc.Reading > 0 {
						fmt.Fprintf(errOut, "%6.1f s searchable, %d pages still reading: %s\n", drop.Since().Seconds(), pr.Doc.Reading, name)
					} else {
						fmt.Fprintf(errOut, "%6.1f s searchable: %s\n", drop.Since().Seconds(), name)
					}
				}
			})
			if err == nil && rep.Cached {
				err = fmt.Errorf("came from the document cache")
			}
			drop.Done(name, err)
			fmt.Fprintf(errOut, "%6.1f s vectors ready: %s\n", drop.Since().Seconds(), name)
		}()
	}
	// A student asks while the PDFs go in: a search a second, timed,
	// against the same searches once every vector is in.
	during := make(chan []float64, 1)
	stop := make(chan struct{})
	go func() {
		var ms []float64
		defer func() { during <- ms }()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(time.Second):
			}
			if d, ok := timedSearch(ctx, eng, i); ok {
				ms = append(ms, d)
			}
		}
	}()
	wg.Wait()
	close(stop)
	r := bench.DropResult{CPUs: runtime.NumCPU()}
	r.Finish(drop)
	r.SearchDuring = bench.Summarise(<-during)
	var after []float64
	for i := range max(len(r.SearchDuring.Samples), 10) {
		if d, ok := timedSearch(ctx, eng, i); ok {
			after = append(after, d)
		}
	}
	r.SearchAfter = bench.Summarise(after)
	if err := eng.Close(); err != nil { // the PDF workers end: their CPU is counted
		return r, err
	}
	if user1, sys1, childPeak, ok := bench.CPUTime(); ok && cpuOK {
		r.UserCPU, r.SysCPU = user1-user0, sys1-sys0
		if r.AllVectors > 0 {
			r.CPURatio = (r.UserCPU + r.SysCPU) / r.AllVectors
		}
		r.WorkerPeakRSSMB = float64(childPeak) / 1e6
	}
	r.WorkerCPU, r.EmbedCPU = -1, -1
	if kids1, ok := bench.ChildCPU(); ok && kidsOK {
		r.WorkerCPU = kids1 - kids0
	}
	if embed1, ok := lowprio.CPU(); ok && embedOK {
		r.EmbedCPU = (embed1 - embed0).Seconds()
	}
	if peak, ok := bench.SelfPeakRSS(); ok {
		r.PeakRSSMB = float64(peak) / 1e6
	}
	var failed []string
	for _, d := range r.Docs {
		if d.Error != "" {
			failed = append(failed, d.File+": "+d.Error)
		}
	}
	if len(failed) > 0 {
		return r, fmt.Errorf("some PDFs were not added: %s", strings.Join(failed, "; "))
	}
	return r, nil
}

// dropQuestions are asked during and after the drop.
var dropQuestions = []string{
	"how does attention compute its weights",
	"what is the capacity of a noisy channel",
	"estimating the number of distinct elements",
	"intervalle de confiance pour une moyenne",
	"residual learning for deep networks",
}

// timedSearch runs the i-th question in the default mode and returns its
// milliseconds.
func timedSearch(ctx context.Context, eng *session.Session, i int) (float64, bool) {
	start := time.Now()
	_, err := eng.Search(ctx, dropQuestions[i%len(dropQuestions)], engine.SearchOptions{K: 8})
	return float64(time.Since(start).Microseconds()) / 1000, err == nil
}
