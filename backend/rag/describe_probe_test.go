package rag

import (
	"strings"
	"testing"

	"vika/backend/llm/llmtest"
)

// TestDescribeModelProbesGemini: a describe run set to Gemini 2.5 Pro
// (no free-tier quota: Gemini's daily-quota 429) probes it with a
// one-token request and runs on Gemini 2.5 Flash; Groq is never asked.
func TestDescribeModelProbesGemini(t *testing.T) {
	p := newProviders(t, func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.Path, "/models/gemini-2.5-pro:") {
			return llmtest.Reply{Status: 429, Body: geminiDailyQuotaBody}
		}
		return geminiSays("OK")
	}, func(llmtest.Request) llmtest.Reply { return groqSays("unused") }, 0)
	s := New(nil, p.svc, Config{})
	got, err := s.DescribeModel(t.Context(), "gemini/gemini-2.5-pro")
	if err != nil || got != "gemini/gemini-2.5-flash" {
		t.Fatalf("describe model %q, %v", got, err)
	}
	if p.gemini.Count() != 2 || p.groq.Count() != 0 {
		t.Errorf("%d Gemini and %d Groq requests", p.gemini.Count(), p.groq.Count())
	}
}

// geminiDailyQuotaBody is Gemini's 429 for a daily quota of zero.
const geminiDailyQuotaBody = `{"error": {"code": 429, "message": "You exceeded your current quota, please check your plan and billing details.", "status": "RESOURCE_EXHAUSTED",
 "details": [{"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [{"quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
 "quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier", "quotaDimensions": {"location": "global", "model": "gemini-2.5-pro"}}]}]}}`
