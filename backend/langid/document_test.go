package langid

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestDocument(t *testing.T) {
	tests := []struct {
		name  string
		pages []PageLang
		want  DocResult
	}{
		{
			name: "one language",
			pages: []PageLang{
				{Lang: "fr", Confidence: 1, Chars: 1500},
				{Lang: "fr", Confidence: 0.9, Chars: 500},
			},
			want: DocResult{Lang: "fr", Confidence: 0.975, Shares: map[string]float64{"fr": 1}},
		},
		{
			name: "second language at the mixed threshold",
			pages: []PageLang{
				{Lang: "fr", Confidence: 1, Chars: 800},
				{Lang: "en", Confidence: 1, Chars: 200},
			},
			want: DocResult{Lang: "fr", Confidence: 0.8, Mixed: true, Shares: map[string]float64{"fr": 0.8, "en": 0.2}},
		},
		{
			name: "English references in a French thesis are not a mix",
			pages: []PageLang{
				{Lang: "fr", Confidence: 1, Chars: 9000},
				{Lang: "en", Confidence: 1, Chars: 1000},
			},
			want: DocResult{Lang: "fr", Confidence: 0.9, Shares: map[string]float64{"fr": 0.9, "en": 0.1}},
		},
		{
			name: "weighted by characters, not by pages",
			pages: []PageLang{
				{Lang: "en", Confidence: 1, Chars: 3000},
				{Lang: "fr", Confidence: 1, Chars: 100},
				{Lang: "fr", Confidence: 1, Chars: 100},
				{Lang: "fr", Confidence: 1, Chars: 100},
			},
			want: DocResult{Lang: "en", Confidence: 3000.0 / 3300, Shares: map[string]float64{"en": 3000.0 / 3300, "fr": 300.0 / 3300}},
		},
		{
			name: "undetermined and empty pages neither vote nor dilute",
			pages: []PageLang{
				{Lang: "de", Confidence: 1, Chars: 1200},
				{Lang: Undetermined, Chars: 40},
				{Lang: Undetermined},
				{Lang: "en", Confidence: 1, Chars: 0},
			},
			want: DocResult{Lang: "de", Confidence: 1, Shares: map[string]float64{"de": 1}},
		},
		{
			name: "tie broken by code",
			pages: []PageLang{
				{Lang: "it", Confidence: 1, Chars: 500},
				{Lang: "es", Confidence: 1, Chars: 500},
			},
			want: DocResult{Lang: "es", Confidence: 0.5, Mixed: true, Shares: map[string]float64{"es": 0.5, "it": 0.5}},
		},
		{
			name:  "no page with a language",
			pages: []PageLang{{Lang: Undetermined, Chars: 12}},
			want:  DocResult{Shares: map[string]float64{}},
		},
		{name: "no pages", want: DocResult{Shares: map[string]float64{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Document(tt.pages)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
				t.Errorf("Document() (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDocumentMixedFrenchEnglish(t *testing.T) {
	// A bilingual course: three French pages, two English ones.
	texts := []string{
		sentences["fr"] + "\n" + sentences["fr"],
		"Chapitre 2\n\n" + sentences["fr"],
		sentences["en"] + "\n" + sentences["en"],
		sentences["fr"] + "\n" + sentences["fr"],
		sentences["en"],
		"17", // a blank page with its number
	}
	pages := make([]PageLang, len(texts))
	for i, text := range texts {
		pages[i] = Page(text)
	}
	got := Document(pages)
	if got.Lang != "fr" || !got.Mixed {
		t.Fatalf("Document = %+v, want fr, mixed", got)
	}
	if fr, en := got.Shares["fr"], got.Shares["en"]; fr < 0.55 || fr > 0.75 || en < 0.25 || en > 0.45 || len(got.Shares) != 2 {
		t.Errorf("Shares = %v, want fr about 0.65 and en about 0.35 only", got.Shares)
	}
	if got.Confidence < 0.55 || got.Confidence > got.Shares["fr"]+1e-9 {
		t.Errorf("Confidence = %v, want about the French share %v", got.Confidence, got.Shares["fr"])
	}
}

func TestPage(t *testing.T) {
	got := Page("Figure 3 — " + sentences["nl"] + " (n = 42)")
	want := PageLang{Lang: "nl", Chars: letterCount(sentences["nl"]) + len("Figure")}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(PageLang{}, "Confidence")); diff != "" {
		t.Errorf("Page() (-want +got):\n%s", diff)
	}
	if blank := Page(strings.Repeat(" ", 50)); blank != (PageLang{}) {
		t.Errorf("Page(blank) = %+v, want zero", blank)
	}
}
