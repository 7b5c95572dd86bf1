package sandbox

import (
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"vika/backend/config"
	"vika/backend/ingest"
	"vika/backend/ocr"
	"vika/backend/pdf"
)

// Environment of a worker process, set by the supervisor.
const (
	envWorker = "VIKA_SANDBOX_WORKER" // protocolVersion: run as a worker
	envMemory = "VIKA_SANDBOX_MEMORY" // address-space limit, bytes
	envCPU    = "VIKA_SANDBOX_CPU"    // CPU-time limit, seconds
	envFaults = "VIKA_SANDBOX_FAULTS" // "1": honour request.Fault (tests only)

	protocolVersion = "1"
)

func init() {
	if config.Getenv(envWorker) == protocolVersion {
		os.Exit(workerMain())
	}
	if config.Getenv(envProgram) == protocolVersion {
		os.Exit(programMain())
	}
}

// IsWorker reports whether this process was started as a worker. (Such a
// process never gets past this package's init; main may call it to make
// the dispatch explicit.)
func IsWorker() bool { return config.Getenv(envWorker) == protocolVersion }

// workerMain limits the process, then serves requests on stdin and stdout
// until stdin closes.
func workerMain() int {
	out, err := protocolOutput()
	if err != nil {
		fmt.Fprintln(os.Stderr, "vika worker:", err)
		return 1
	}
	mem, _ := strconv.ParseInt(config.Getenv(envMemory), 10, 64)
	cpu, _ := strconv.Atoi(config.Getenv(envCPU))
	if err := limitSelf(mem, cpu); err != nil {
		fmt.Fprintln(os.Stderr, "vika worker: cannot set limits:", err)
		return 1
	}
	if mem > 0 {
		debug.SetMemoryLimit(mem / 2) // the Go heap's share; MuPDF and Tesseract allocate in C
	}
	if err := serve(os.Stdin, out, config.Getenv(envFaults) == "1"); err != nil {
		fmt.Fprintln(os.Stderr, "vika worker:", err)
		return 1
	}
	return 0
}

// serve answers requests until in ends. One document is open at a time.
func serve(in io.Reader, out io.Writer, faults bool) error {
	dec, enc := gob.NewDecoder(in), gob.NewEncoder(out)
	rec := &lazyPool{}
	defer rec.Close()
	var doc ingest.Reader
	defer func() {
		if doc != nil {
			doc.Close()
		}
	}()
	ctx := context.Background()
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("reading a request: %w", err)
		}
		if faults && req.Fault != "" {
			fault(req.Fault)
		}
		var resp response
		switch req.Op {
		case opOpen:
			if doc != nil {
				doc.Close()
				doc = nil
			}
			opts := ingest.Options{Limits: req.Opts.Limits, OCRDPI: req.Opts.OCRDPI, PageTimeout: req.Opts.PageTimeout, OCRTimeout: req.Opts.OCRTimeout, Regions: req.Opts.Regions, OCR: rec}
			d, err := ingest.InProcess.Open(ctx, req.Data, opts)
			if err == nil {
				doc, resp.Pages, resp.Truncated = d, d.NumPages(), d.Truncated()
				resp.Meta, resp.Outline = d.About()
			}
			resp.Err = toWire(err)
		case opPage, opOCR:
			if doc == nil {
				resp.Err = toWire(errors.New("no document is open"))
				break
			}
			var err error
			if s, ok := doc.(ingest.CropStopper); ok && req.NoCrops {
				s.StopCrops()
			}
			if req.Op == opPage {
				resp.Page, err = doc.Page(ctx, req.Page)
			} else {
				resp.Text, err = doc.OCR(ctx, req.Target)
			}
			resp.Err = toWire(err)
		case opConvert:
			var err error
			deadline := time.Now().Add(req.Opts.PageTimeout)
			resp.PDF, resp.Pages, err = pdf.WritePDF(req.Data, req.Kind, req.MaxSide, req.Opts.Limits, deadline)
			resp.Err = toWire(err)
		case opCrop:
			c, ok := doc.(ingest.Cropper)
			if !ok {
				resp.Err = toWire(errors.New("no document is open"))
				break
			}
			var err error
			resp.Image, err = c.Crop(ctx, req.Page, req.Crop, req.DPI)
			resp.Err = toWire(err)
		default:
			resp.Err = toWire(fmt.Errorf("unknown request %q", req.Op))
		}
		if faults && req.Fault == "lie" {
			lie(&resp)
		}
		resp.CPU, resp.RSS, resp.Peak = cpuTime(), residentBytes(), peakBytes()
		if err := enc.Encode(&resp); err != nil {
			return fmt.Errorf("writing a response: %w", err)
		}
	}
}

// bloated holds what the "bloat" fault allocated.
var bloated [][]byte

// fault misbehaves as a test asks.
func fault(kind string) {
	switch kind {
	case "crash":
		var m map[string]int
		m["crash"] = 1 // a nil-map write: the runtime ends the process
	case "hang":
		select {}
	case "bloat": // a page that leaves the worker 300 MB bigger, then is read as usual
		b := make([]byte, 300<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		bloated = append(bloated, b)
	case "alloc":
		var hold [][]byte
		for {
			b := make([]byte, 64<<20)
			for i := range b {
				b[i] = 1
			}
			hold = append(hold, b)
		}
	}
}

// lie makes a reply claim what a compromised worker might: a billion
// pages, and page numbers far from the page asked for.
func lie(resp *response) {
	resp.Pages = 1 << 30
	resp.Page.Page.Number = 1 << 20
	resp.Page.Target.Page = 1 << 20
	for i := range resp.Page.Page.Regions {
		resp.Page.Page.Regions[i].Page = 1 << 20
	}
}

// lazyPool is the worker's Tesseract client, started on first use: one
// client, so one image is recognised at a time.
type lazyPool struct {
	mu   sync.Mutex
	pool *ocr.Pool
}

func (l *lazyPool) Recognize(ctx context.Context, img image.Image, h ocr.Hints) (ocr.Result, error) {
	l.mu.Lock()
	if l.pool == nil {
		cfg, err := ocr.ConfigFromEnv(ocr.Config{}, config.Getenv)
		if err != nil {
			l.mu.Unlock()
			return ocr.Result{}, err
		}
		cfg.Workers = 1
		if d, ok := ctx.Deadline(); ok {
			cfg.Timeout = max(cfg.Timeout, 2*time.Until(d)) // the budget rules; the supervisor kills past it
		}
		p, err := ocr.NewPool(cfg)
		if err != nil {
			l.mu.Unlock()
			return ocr.Result{}, err
		}
		l.pool = p
	}
	p := l.pool
	l.mu.Unlock()
	return p.Recognize(ctx, img, h)
}

func (l *lazyPool) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pool == nil {
		return nil
	}
	return l.pool.Close()
}
