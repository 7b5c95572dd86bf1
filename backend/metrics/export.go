package metrics

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Columns are the CSV header: the Record's JSON field names, in order.
var Columns = []string{
	"query_index", "query", "llm_model", "llm_routing_mode", "retrieval_mode",
	"retrieval_latency_ms", "generation_latency_ms", "time_to_first_token_ms", "total_latency_ms",
	"chunks_retrieved", "chunks_used", "reranker_score_mean", "reranker_score_min", "cosine_sim_mean",
	"bm25_contribution_pct", "bm25_score_share_pct", "hit_at_5", "recall_at_5", "mrr", "page_types_used", "fallback_chain",
	"history_applied", "hyde_applied", "multi_query_applied", "rerank_applied",
	"tokens_in", "tokens_out", "citation_valid_pct", "images_sent", "images_withheld", "scope",
}

// keyShaped matches API keys of the providers Vika knows (OpenAI-style
// "sk-", OpenRouter "sk-or-", Groq "gsk_", Google "AIza") and any other
// word of 32 or more letters and digits (Mistral's keys have no prefix),
// which Redact replaces when it mixes letters and digits.
var keyShaped = regexp.MustCompile(`sk-[A-Za-z0-9_-]{16,}|gsk_[A-Za-z0-9]{16,}|AIza[0-9A-Za-z_-]{30,}|\b[A-Za-z0-9]{32,}\b`)

// Redacted stands for a key-shaped string.
const Redacted = "[redacted]"

// Redact replaces what looks like an API key in s with Redacted, so that a
// key pasted into a question never reaches the session database or an
// export.
func Redact(s string) string {
	return keyShaped.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, "sk-") || strings.HasPrefix(m, "gsk_") || strings.HasPrefix(m, "AIza") ||
			(strings.ContainsAny(m, "0123456789") && strings.ContainsFunc(m, isLetter)) {
			return Redacted
		}
		return m
	})
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// Redacted returns r with Redact applied to the query, its only free
// text (model names come from the catalogue or Ollama, error kinds from
// llm.KindOf).
func (r Record) Redacted() Record {
	r.Query = Redact(r.Query)
	return r
}

// WriteCSV writes recs (redacted) as CSV with the Columns header. Unknown
// values are empty cells; page_types_used reads "mixed:1;text:4" (types
// sorted) and fallback_chain "a (rate_limited) > b".
func WriteCSV(w io.Writer, recs []Record) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Columns); err != nil {
		return err
	}
	for _, r := range recs {
		if err := cw.Write(row(r.Redacted())); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func row(r Record) []string {
	return []string{
		strconv.Itoa(r.QueryIndex), csvText(r.Query), csvText(r.LLMModel), csvText(r.LLMRoutingMode), csvText(r.RetrievalMode),
		num(r.RetrievalLatencyMs), num(r.GenerationLatencyMs), opt(r.TimeToFirstTokenMs), num(r.TotalLatencyMs),
		strconv.Itoa(r.ChunksRetrieved), strconv.Itoa(r.ChunksUsed), opt(r.RerankerScoreMean), opt(r.RerankerScoreMin), opt(r.CosineSimMean),
		num(r.BM25ContributionPct), num(r.BM25ScoreSharePct), opt(r.HitAt5), opt(r.RecallAt5), opt(r.MRR), pageTypes(r.PageTypesUsed), csvText(strings.Join(r.FallbackChain, " > ")),
		strconv.FormatBool(r.HistoryApplied), strconv.FormatBool(r.HyDEApplied), strconv.FormatBool(r.MultiQueryApplied), strconv.FormatBool(r.RerankApplied),
		strconv.Itoa(r.TokensIn), strconv.Itoa(r.TokensOut), opt(r.CitationValidPct),
		strconv.Itoa(r.ImagesSent), strconv.Itoa(r.ImagesWithheld), r.Scope,
	}
}

// csvText keeps a text cell from being read as a formula by a spreadsheet
// (CSV injection): a cell that StartsFormula gets a leading apostrophe,
// which spreadsheets show as text.
func csvText(s string) string {
	if StartsFormula(s) {
		return "'" + s
	}
	return s
}

// StartsFormula says whether a spreadsheet could read a cell holding s as
// a formula: s starts with =, +, -, @, a tab or a carriage return. The
// one list of them, for every export's cells (CSVText; the flashcards'
// Anki TSV, whose HTML fields write the character as a reference).
func StartsFormula(s string) bool {
	return s != "" && strings.IndexByte("=+-@\t\r", s[0]) >= 0
}

// CSVText is the same guard for the other exports' CSV cells (flashcards).
func CSVText(s string) string { return csvText(s) }

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func opt(v *float64) string {
	if v == nil {
		return ""
	}
	return num(*v)
}

func pageTypes(m map[string]int) string {
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s:%d", k, m[k]))
	}
	return strings.Join(parts, ";")
}

// Export is the JSON export of a session's metrics.
type Export struct {
	Summary Summary  `json:"summary"`
	Records []Record `json:"records"`
}

// WriteJSON writes the summary and recs (redacted) as indented JSON.
func WriteJSON(w io.Writer, s Summary, recs []Record) error {
	out := Export{Summary: s, Records: make([]Record, len(recs))}
	for i, r := range recs {
		out.Records[i] = r.Redacted()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
