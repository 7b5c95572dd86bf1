package export

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"vika/backend/metrics"
	"vika/backend/rag"
)

// BatchItem is one line of a batch's JSON lines: the question, its answer
// (citations with their verification, sources, model, metrics) and the
// error that stopped it, if any.
type BatchItem struct {
	Index    int         `json:"index"` // 1-based, in the queries file
	ID       string      `json:"id,omitempty"`
	Question string      `json:"question"`
	Answer   *rag.Answer `json:"answer"` // nil when the question failed before any text
	Error    string      `json:"error,omitempty"`
}

// Batch is a batch run: the PDFs ingested once, how long that took, and
// every question's item.
type Batch struct {
	PDFs      []string
	Ingestion time.Duration
	Items     []BatchItem
}

// WriteJSONL writes each item on one line, redacted as every export
// (Redacted).
func WriteJSONL(w io.Writer, items []BatchItem) error {
	enc := json.NewEncoder(w)
	for _, it := range items {
		it.Question = metrics.Redact(it.Question)
		if it.Answer != nil {
			it.Answer = &Redacted([]rag.Answer{*it.Answer})[0]
		}
		if err := enc.Encode(it); err != nil {
			return err
		}
	}
	return nil
}

// Report writes the batch as one self-contained HTML page (Page): a
// summary (PDFs, ingestion time, models, latency percentiles, verified
// citations, relevance proxy), then every answer as a conversation export
// shows it, with its metrics; a failed question shows its error.
func Report(w io.Writer, b Batch, now time.Time) error {
	turns := make([]rag.Answer, len(b.Items))
	var recs []metrics.Record
	models := map[string]int{}
	failed := 0
	for i, it := range b.Items {
		a := rag.Answer{Question: it.Question}
		if it.Answer != nil {
			a = *it.Answer
			recs = append(recs, a.Metrics)
		}
		if it.Error != "" {
			failed++
			a.Footer = strings.TrimSpace("Failed: " + it.Error + ". " + a.Footer)
		}
		if a.ModelUsed != "" {
			models[a.ModelUsed]++
		}
		turns[i] = a
	}
	sum := metrics.Summarize(recs)
	var used []string
	for _, m := range slices.Sorted(maps.Keys(models)) {
		used = append(used, fmt.Sprintf("%s (%d)", m, models[m]))
	}
	header := Header{
		{"PDFs", strings.Join(b.PDFs, ", ")},
		{"ingestion (once)", ms(metrics.Ms(b.Ingestion))},
		{"questions", fmt.Sprintf("%d (%d failed)", len(b.Items), failed)},
		{"models used", orNone(strings.Join(used, ", "))},
		{"total latency p50 / p95", ms(sum.TotalLatencyP50Ms) + " / " + ms(sum.TotalLatencyP95Ms)},
		{"citations verified (mean)", optPct(sum.CitationValidPctMean)},
		{"Hit@5, Recall@5, MRR", "relevance proxy: " + sum.RelevanceProxy},
	}
	return Page(w, "Vika batch report", now, header, turns)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
