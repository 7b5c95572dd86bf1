package export

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"vika/backend/message"
	"vika/backend/metrics"
	"vika/backend/rag"
)

// CSP is the page's Content-Security-Policy: nothing may load, no script
// may run; only the inline style applies.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

const pageCSS = `math[display=block]{display:block math;margin:.4em 0;overflow-x:auto}.math-display{display:block;overflow-x:auto}.math-error{border-bottom:1px dashed #b07d1a}
body{font:15px/1.55 system-ui,sans-serif;max-width:56rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f;background:#fff}
h1{font-size:1.4rem;margin-bottom:.2rem}h2{font-size:1.1rem;margin:2rem 0 .5rem}
.answer{border-left:3px solid #d0d7de;padding:.1rem .9rem}
.answer pre{background:#f6f8fa;padding:.5rem;overflow:auto}.answer code{background:#f6f8fa;padding:0 .2em}
.answer table{border-collapse:collapse}.answer td,.answer th{border:1px solid #d0d7de;padding:.2rem .5rem}
.cite{font-size:.85em;padding:0 .25em;border-radius:3px;background:#e7f3ea;color:#1a5e2a;white-space:nowrap}
.cite.unverified{background:#fdecea;color:#8a1c12}
.footer,.meta{color:#57606a;font-size:.85em}
.kind{font-weight:600;color:#8a5a00}
.flags{font-size:.8em;margin:.3rem 0}.flag{display:inline-block;border:1px solid #d0d7de;border-radius:10px;padding:0 .55em;margin-right:.3em;color:#8c959f}
.flag.on{background:#ddf4ff;border-color:#54aeff;color:#0a3069}
details{margin:.4rem 0;font-size:.88em}summary{cursor:pointer;color:#0969da}
ol.sources li{margin:.35rem 0}.scores{color:#57606a}
.passage{margin:.2rem 0 .4rem;padding:.2rem .6rem;border-left:2px solid #eaeef2;color:#333;white-space:pre-wrap}
table.metrics{border-collapse:collapse;font-size:.85em}table.metrics td,table.metrics th{border:1px solid #d0d7de;padding:.15rem .5rem;text-align:left}
table.metrics td.n{text-align:right;font-variant-numeric:tabular-nums}
.ok{color:#1a5e2a}.bad{color:#8a1c12}`

// Header is the block a page shows under its title: label, value pairs
// (a batch report's PDFs, models and summary), escaped.
type Header [][2]string

// Page writes turns as one self-contained HTML page titled title: inline
// CSS, no script, no remote resource, the strict CSP, every text escaped.
// Each turn shows its answer's Markdown rendered under the window's rules
// with its citations marked verified or not, the model used, which
// techniques applied, its sources (page and scores) and its metrics in
// collapsible sections; now is the export time.
func Page(w io.Writer, title string, now time.Time, header Header, turns []rag.Answer) error {
	var b strings.Builder
	writeHead(&b, "en", title)
	fmt.Fprintf(&b, "<h1>%s</h1>\n", esc(title))
	fmt.Fprintf(&b, "<p class=\"meta\">Exported %s</p>\n", esc(now.UTC().Format("2006-01-02 15:04:05 UTC")))
	if len(header) > 0 {
		b.WriteString("<table class=\"metrics\">\n")
		for _, kv := range header {
			fmt.Fprintf(&b, "<tr><th>%s</th><td>%s</td></tr>\n", esc(kv[0]), esc(kv[1]))
		}
		b.WriteString("</table>\n")
	}
	if len(turns) == 0 {
		b.WriteString("<p class=\"meta\">No question was asked.</p>\n")
	}
	for i, t := range turns {
		writeTurn(&b, i+1, t)
	}
	b.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func writeTurn(b *strings.Builder, n int, t rag.Answer) {
	fmt.Fprintf(b, "<section>\n<h2>%d. %s</h2>\n", n, esc(t.Question))
	if t.StandaloneQuestion != "" {
		fmt.Fprintf(b, "<p class=\"meta\">Searched as: %s</p>\n", esc(t.StandaloneQuestion))
	}
	if t.Metrics.Scope != "" {
		fmt.Fprintf(b, "<p class=\"meta scope\">Searched only in: %s</p>\n", esc(t.Metrics.Scope))
	}
	if label := kindLabel(t); label != "" {
		fmt.Fprintf(b, "<p class=\"kind\">%s</p>\n", esc(label))
	}
	fmt.Fprintf(b, "<div class=\"answer\">\n%s</div>\n", Markdown(t.Answer, t.Citations))
	fmt.Fprintf(b, "<p class=\"footer\">%s</p>\n", esc(t.Footer))
	writeFlags(b, t.Metrics)
	writeCitations(b, t)
	writeSources(b, t.Sources)
	writeMetrics(b, t.Metrics)
	b.WriteString("</section>\n")
}

// Techniques names the query techniques a record says applied, in the
// order the page shows them.
var Techniques = []string{"history", "HyDE", "multi-query", "rerank"}

// Applied returns, in the order of Techniques, whether each applied.
func Applied(r metrics.Record) []bool {
	return []bool{r.HistoryApplied, r.HyDEApplied, r.MultiQueryApplied, r.RerankApplied}
}

func writeFlags(b *strings.Builder, r metrics.Record) {
	b.WriteString("<p class=\"flags\">Applied: ")
	for i, on := range Applied(r) {
		class, mark := "flag", "off"
		if on {
			class, mark = "flag on", "on"
		}
		fmt.Fprintf(b, "<span class=\"%s\" title=\"%s %s\">%s</span>", class, esc(Techniques[i]), mark, esc(Techniques[i]))
	}
	b.WriteString("</p>\n")
}

func writeCitations(b *strings.Builder, t rag.Answer) {
	if len(t.Citations) == 0 {
		return
	}
	ok := 0
	for _, c := range t.Citations {
		if c.Verified {
			ok++
		}
	}
	fmt.Fprintf(b, "<details class=\"citations\"><summary>Citations: %d of %d verified</summary>\n<ul>\n", ok, len(t.Citations))
	for _, c := range t.Citations {
		if c.Verified {
			fmt.Fprintf(b, "<li><span class=\"ok\">verified</span> %s (claim overlap %.0f%%)</li>\n", esc(c.Label), 100*c.Overlap)
		} else {
			fmt.Fprintf(b, "<li><span class=\"bad\">not verified</span> %s: %s</li>\n", esc(c.Label), esc(message.New(c.Reason).English()))
		}
	}
	b.WriteString("</ul>\n</details>\n")
}

// passageRunes bounds the passage text shown under a source.
const passageRunes = 700

func writeSources(b *strings.Builder, srcs []rag.Source) {
	if len(srcs) == 0 {
		return
	}
	fmt.Fprintf(b, "<details class=\"sources\"><summary>Sources (%d)</summary>\n<ol class=\"sources\">\n", len(srcs))
	for _, s := range srcs {
		fmt.Fprintf(b, "<li><strong>%s</strong> <span class=\"scores\">%s</span>\n<div class=\"passage\">%s</div></li>\n",
			esc(s.Label), esc(scores(s)), esc(clip(s.Text, passageRunes)))
	}
	b.WriteString("</ol>\n</details>\n")
}

// scores describes a source's page and scores in a line.
func scores(s rag.Source) string {
	parts := []string{"page " + strconv.Itoa(s.Page), "fused " + f3(s.Score)}
	if s.LexicalScore != nil {
		parts = append(parts, "BM25 "+f3(*s.LexicalScore))
	}
	if s.DenseScore != nil {
		parts = append(parts, "cosine "+f3(*s.DenseScore))
	}
	if s.RerankScore != nil {
		parts = append(parts, "reranker "+f3(*s.RerankScore))
	}
	if s.FoundBy != "" {
		parts = append(parts, "found by "+s.FoundBy)
	}
	return strings.Join(parts, " · ")
}

func writeMetrics(b *strings.Builder, r metrics.Record) {
	rows := [][2]string{
		{"total latency", ms(r.TotalLatencyMs)}, {"retrieval latency", ms(r.RetrievalLatencyMs)},
		{"generation latency", ms(r.GenerationLatencyMs)}, {"time to first token", optMs(r.TimeToFirstTokenMs)},
		{"retrieval mode", r.RetrievalMode}, {"routing", r.LLMRoutingMode},
		{"chunks retrieved / used", fmt.Sprintf("%d / %d", r.ChunksRetrieved, r.ChunksUsed)},
		{"BM25 contribution (chunks used found by BM25)", pct(r.BM25ContributionPct)},
		{"BM25 share of fused scores", pct(r.BM25ScoreSharePct)},
		{"Hit@5 / Recall@5 / MRR", proxied(r)},
		{"reranker score mean / min", opt(r.RerankerScoreMean) + " / " + opt(r.RerankerScoreMin)},
		{"cosine mean", opt(r.CosineSimMean)},
		{"citations verified", optPct(r.CitationValidPct)},
		{"tokens in / out", fmt.Sprintf("%d / %d", r.TokensIn, r.TokensOut)},
		{"models tried", strings.Join(r.FallbackChain, " > ")},
	}
	b.WriteString("<details class=\"metrics\"><summary>Metrics</summary>\n<table class=\"metrics\">\n")
	for _, kv := range rows {
		v := kv[1]
		if v == "" {
			v = "—"
		}
		fmt.Fprintf(b, "<tr><th>%s</th><td class=\"n\">%s</td></tr>\n", esc(kv[0]), esc(v))
	}
	b.WriteString("</table>\n</details>\n")
}

// proxied is Hit@5 / Recall@5 / MRR, or why they are unknown.
func proxied(r metrics.Record) string {
	if !r.RerankApplied {
		return metrics.ProxyNone
	}
	return opt(r.HitAt5) + " / " + opt(r.RecallAt5) + " / " + opt(r.MRR)
}

func f3(v float64) string  { return strconv.FormatFloat(v, 'f', 3, 64) }
func ms(v float64) string  { return strconv.FormatFloat(v, 'f', 1, 64) + " ms" }
func pct(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + " %" }

func opt(v *float64) string {
	if v == nil {
		return "—"
	}
	return f3(*v)
}

func optMs(v *float64) string {
	if v == nil {
		return "—"
	}
	return ms(*v)
}

func optPct(v *float64) string {
	if v == nil {
		return "—"
	}
	return pct(*v)
}

// clip cuts s to n runes, with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// writeHead writes an exported page's doctype and head (its language, the
// CSP that lets nothing load or run, no referrer, its title and style) and
// opens its body.
func writeHead(b *strings.Builder, lang, title string) {
	if lang == "" {
		lang = "en"
	}
	fmt.Fprintf(b, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n", esc(lang))
	fmt.Fprintf(b, "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n", CSP)
	fmt.Fprintf(b, "<meta name=\"referrer\" content=\"no-referrer\">\n<title>%s</title>\n<style>\n%s\n</style>\n</head>\n<body>\n", esc(title), pageCSS)
}
