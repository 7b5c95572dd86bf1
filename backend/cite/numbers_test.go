package cite

import (
	"testing"

	"vika/backend/corpus"
)

// numberSources are written for these tests: an English page and a French
// one, each with thousands, decimals and percentages in its own notation.
var numberSources = []corpus.Hit{
	{File: "bert.pdf", Page: 5, Text: "Pre-training data. For the pre-training corpus we use the BooksCorpus (800M words) and English Wikipedia (2,500M words). The masking rate is 15% and the fine-tuning set holds 9,999 examples with an error rate of 3.57%."},
	{File: "these.pdf", Page: 20, Text: "La cohorte compte 1 245 patients suivis pendant 18 mois. Le taux de colonisation atteint 3,57 % chez les enfants et 41,8 % chez les adultes ; le registre national recense 9.999 dossiers."},
}

// TestCheckNumbers: every number of the claim must be in the cited
// passage, whatever the notation; one wrong number among right ones makes
// the citation unverified.
func TestCheckNumbers(t *testing.T) {
	tests := []struct {
		name   string
		answer string
		want   bool
	}{
		// English claims on the English page.
		{"en both right", "BooksCorpus holds 800M words and English Wikipedia holds 2,500M words [bert.pdf p.5].", true},
		{"en one wrong", "BooksCorpus holds 800M words and English Wikipedia holds 9,999M words [bert.pdf p.5].", false},
		{"en wrong first", "BooksCorpus holds 900M words and English Wikipedia holds 2,500M words [bert.pdf p.5].", false},
		{"en scale as a word", "The pre-training corpus uses BooksCorpus with 800 million words and Wikipedia with 2.5 billion words [bert.pdf p.5].", true},
		{"en thousands without separator", "The fine-tuning set holds 9999 examples with an error rate of 3.57% [bert.pdf p.5].", true},
		{"en percent in French notation", "Le jeu de fine-tuning compte 9 999 exemples, avec un taux d'erreur de 3,57 % [bert.pdf p.5].", true},
		{"en percent wrong", "The fine-tuning set holds 9,999 examples with an error rate of 3.75% [bert.pdf p.5].", false},
		{"en masking right, rate wrong", "The masking rate is 15% and the fine-tuning error rate is 4.57% [bert.pdf p.5].", false},
		// French claims on the French page.
		{"fr both right", "La cohorte compte 1 245 patients et le taux de colonisation atteint 3,57 % chez les enfants [these.pdf p.20].", true},
		{"fr one wrong", "La cohorte compte 1 245 patients et le taux de colonisation atteint 4,57 % chez les enfants [these.pdf p.20].", false},
		{"fr thousands with a no-break space", "La cohorte compte 1\u00a0245 patients suivis pendant 18 mois [these.pdf p.20].", true},
		{"fr thousands with a dot", "Le registre national recense 9 999 dossiers, la cohorte 1.245 patients [these.pdf p.20].", true},
		{"fr decimal wrong", "Le taux de colonisation atteint 41,8 % chez les adultes et 3,75 % chez les enfants [these.pdf p.20].", false},
		{"fr months wrong", "La cohorte compte 1 245 patients suivis pendant 24 mois [these.pdf p.20].", false},
		{"en claim on the French page", "The cohort has 1,245 patients followed for 18 months, colonisation 41.8% in adults [these.pdf p.20].", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cits := Check(tt.answer, numberSources)
			if len(cits) != 1 {
				t.Fatalf("%d citations: %+v", len(cits), cits)
			}
			c := cits[0]
			if c.Verified != tt.want {
				t.Errorf("verified = %v, want %v (reason %q, overlap %.2f, claim %q)", c.Verified, tt.want, c.Reason, c.Overlap, c.Claim)
			}
			if !tt.want && c.Reason != ReasonNumbers {
				t.Errorf("reason = %q, want %q (the words match; a number does not)", c.Reason, ReasonNumbers)
			}
		})
	}
}

// TestNumberReadings: the notations that stand for the same value meet,
// and the ones that do not, do not.
func TestNumberReadings(t *testing.T) {
	tests := []struct {
		claim, passage string
		same           bool
	}{
		{"9,999", "9999", true},
		{"9.999", "9,999", true},
		{"9 999", "9.999", true},
		{"9\u202f999", "9999", true},
		{"3.57%", "3,57 %", true},
		{"3,57", "3.57", true},
		{"800M", "800 million", true},
		{"2,5 milliards", "2,500M", true},
		{"41.8", "41,8", true},
		{"12", "twelve", false},
		{"2", "two", true},
		{"2", "deux", true},
		{"1,000", "100", false},
		{"3.57", "357", false},
		{"9,999", "9,998", false},
		{"800M", "800", false},
		{"3.2.1", "3.2.1", true},
		{"3.2.1", "3.2", false},
		{"F1 of 93.2", "93,2", true},
	}
	for _, tt := range tests {
		claim := numbersIn(tt.claim, true)
		if len(claim) != 1 {
			t.Errorf("numbersIn(%q) = %+v, want one number", tt.claim, claim)
			continue
		}
		have := append(numbersIn(tt.passage, false), numberWords(tt.passage)...)
		if got := allFound(claim, have); got != tt.same {
			t.Errorf("%q in %q = %v, want %v (claim %+v, passage %+v)", tt.claim, tt.passage, got, tt.same, claim, have)
		}
	}
}

// TestNumbersLeftOut: years and references to parts of a document are not
// claims about numbers.
func TestNumbersLeftOut(t *testing.T) {
	for text, want := range map[string]int{
		"Devlin et al. (2019) report 800M words":                    1,
		"As Table 2 and Fig. 3 show, accuracy reaches 84.6":         1,
		"Voir le tableau 1 et l'équation (4) : 41,8 %":              1,
		"GPT-3 and BERT_BASE with 12 layers, F1 93.2 in section 4":  3,
		"two steps: (1) pre-training and 2) fine-tuning on 3 tasks": 1,
	} {
		if got := numbersIn(text, true); len(got) != want {
			t.Errorf("numbersIn(%q) = %+v, want %d numbers", text, got, want)
		}
	}
}
