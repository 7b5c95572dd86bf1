package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"vika/backend/atomicfile"
	"vika/backend/export"
	"vika/backend/rag"
	"vika/backend/session"
)

// query is one line of a queries file: {"question": "...", "id": "..."}
// (id optional).
type query struct {
	ID       string `json:"id"`
	Question string `json:"question"`
}

// maxQueries bounds a queries file.
const maxQueries = 10000

// readQueries reads a JSON-lines file of questions. Blank lines are
// skipped; any other line must be an object with a non-empty "question"
// (and optionally an "id"), else the whole file is refused with the line
// number, before anything is ingested.
func readQueries(path string) ([]query, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the queries: %w", err)
	}
	var qs []query
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var q query
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&q); err != nil {
			return nil, fmt.Errorf("%w: %s line %d: want {\"question\": \"...\"} (optionally \"id\"): %v", errUsage, path, n, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("%w: %s line %d: one JSON object per line", errUsage, path, n)
		}
		q.Question = strings.TrimSpace(q.Question)
		if q.Question == "" {
			return nil, fmt.Errorf("%w: %s line %d: the question is empty", errUsage, path, n)
		}
		if len(qs) == maxQueries {
			return nil, fmt.Errorf("%w: %s has more than %d questions", errUsage, path, maxQueries)
		}
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the queries: %s: %w", path, err)
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%w: %s holds no question", errUsage, path)
	}
	return qs, nil
}

// batchOut is where a batch writes: the JSON lines ("-" for out) and the
// HTML report.
type batchOut struct {
	jsonl, report string
}

// runBatch answers every question of qs over the PDFs, ingested once,
// one question after another, each on its own (no conversation history),
// and writes the JSON lines and the report. A question that fails is
// reported in both and the others go on; the exit status says whether
// any failed.
func runBatch(ctx context.Context, eng *session.Session, pdfs []string, qs []query, opts rag.Options, dst batchOut, out, errOut io.Writer) error {
	start := time.Now()
	if err := addAll(ctx, eng, pdfs, "vika ask", errOut); err != nil {
		return err
	}
	// A batch is a measurement: every question sees the vectors.
	if err := eng.WaitVectors(ctx); err != nil {
		return err
	}
	b := export.Batch{Ingestion: time.Since(start)}
	for _, p := range pdfs {
		b.PDFs = append(b.PDFs, filepath.Base(p))
	}
	opts.History = false
	failed := 0
	for i, q := range qs {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		a, err := eng.Ask(ctx, q.Question, opts, nil)
		it := export.BatchItem{Index: i + 1, ID: q.ID, Question: q.Question, Answer: &a}
		if err != nil {
			failed++
			it.Error = err.Error()
			if a.Answer == "" && a.Footer == "" {
				it.Answer = nil
			}
		}
		b.Items = append(b.Items, it)
		fmt.Fprintf(errOut, "vika ask: %d/%d %s\n", i+1, len(qs), status(it))
	}
	var lines bytes.Buffer
	if err := export.WriteJSONL(&lines, b.Items); err != nil {
		return err
	}
	if err := writeOut(dst.jsonl, out, lines.Bytes()); err != nil {
		return err
	}
	var page bytes.Buffer
	if err := export.Report(&page, b, time.Now()); err != nil {
		return err
	}
	if err := writeOut(dst.report, out, page.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(errOut, "vika ask: %d questions, %d failed; report: %s\n", len(qs), failed, dst.report)
	if failed > 0 {
		return fmt.Errorf("%d of %d questions failed (see the report)", failed, len(qs))
	}
	return nil
}

// status is a question's line of progress.
func status(it export.BatchItem) string {
	if it.Error != "" {
		return "failed: " + it.Error
	}
	a := it.Answer
	ok := 0
	for _, c := range a.Citations {
		if c.Verified {
			ok++
		}
	}
	model := a.ModelUsed
	if model == "" {
		model = a.Kind
	}
	return fmt.Sprintf("%s, %d/%d citations verified, %.0f ms", model, ok, len(a.Citations), a.Metrics.TotalLatencyMs)
}

// writeOut writes data to path, or to out for "-".
func writeOut(path string, out io.Writer, data []byte) error {
	if path == "-" {
		_, err := out.Write(data)
		return err
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

var errNoQuestionWithQueries = errors.New("give either --queries FILE or a question, not both")
