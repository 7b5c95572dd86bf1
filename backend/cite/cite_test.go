package cite

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"vika/backend/corpus"
)

const longName = "this_is_a_very_long_scientific_document_name_indeed.pdf"

// sources are written for these tests (not quoted from the papers).
var sources = []corpus.Hit{
	{File: "bert.pdf", Page: 5, ChunkID: "b5", Text: "Pre-training data. For the pre-training corpus we use the BooksCorpus (800M words) and English Wikipedia (2,500M words). For Wikipedia we extract only the text passages and ignore lists, tables, and headers."},
	{File: "bert.pdf", Page: 13, ChunkID: "b13", Text: "Training of BERT BASE was performed on 4 Cloud TPUs in Pod configuration (16 TPU chips total). Training of BERT LARGE was performed on 16 Cloud TPUs (64 TPU chips total). Each pretraining took 4 days to complete."},
	{File: longName, Page: 42, ChunkID: "l42", Text: "The DPLL algorithm is a complete, backtracking-based search algorithm for deciding the satisfiability of propositional logic formulae in conjunctive normal form."},
	{File: "cours_stat.pdf", Page: 7, ChunkID: "c7", Text: "Un estimateur sans biais est un estimateur dont l'espérance est égale au paramètre estimé. La variance de l'estimateur mesure sa dispersion autour de cette espérance."},
	{File: "lecture_sat.pdf", Page: 42, ChunkID: "s42", Text: "Unit propagation assigns the only remaining literal of a unit clause and repeats until no unit clause is left."},
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want []Ref
	}{
		{"x [lecture_sat.pdf p.42].", []Ref{{File: "lecture_sat.pdf", Page: 42}}},
		{"x [lecture_sat.pdf, p. 42]", []Ref{{File: "lecture_sat.pdf", Page: 42}}},
		{"x [lecture_sat.pdf page 42]", []Ref{{File: "lecture_sat.pdf", Page: 42}}},
		{"x [lecture_sat.pdf p.3, p.5]", []Ref{{File: "lecture_sat.pdf", Page: 3}, {File: "lecture_sat.pdf", Page: 5}}},
		{"x [lecture_sat.pdf p.3, 5 and 7]", []Ref{{File: "lecture_sat.pdf", Page: 3}, {File: "lecture_sat.pdf", Page: 5}, {File: "lecture_sat.pdf", Page: 7}}},
		{"x [lecture_sat.pdf pp. 3-5]", []Ref{{File: "lecture_sat.pdf", Page: 3}, {File: "lecture_sat.pdf", Page: 4}, {File: "lecture_sat.pdf", Page: 5}}},
		{"x [a.pdf p.3; b.pdf p.7]", []Ref{{File: "a.pdf", Page: 3}, {File: "b.pdf", Page: 7}}},
		{"x [a.pdf p.3, b.pdf p.7]", []Ref{{File: "a.pdf", Page: 3}, {File: "b.pdf", Page: 7}}},
		{"x [Source 2]", []Ref{{Source: 2}}},
		{"x [source 2, p.5]", []Ref{{Source: 2, Page: 5}}},
		{"x [Sources 2, 3]", []Ref{{Source: 2}, {Source: 3}}},
		{"x [S2]", []Ref{{Source: 2}}},
		{"x 【lecture_sat.pdf p.42】", []Ref{{File: "lecture_sat.pdf", Page: 42}}},
		{"x [deep p.pdf p.4]", []Ref{{File: "deep p.pdf", Page: 4}}},
		{"x [" + longName + " p.42]", []Ref{{File: longName, Page: 42}}},
		{"x [this_is_a_very_long_scientific_docum....pdf p.42]", []Ref{{File: "this_is_a_very_long_scientific_docum....pdf", Page: 42}}},
		{"x [notes.pdf]", []Ref{{File: "notes.pdf"}}},
		{"the [MASK] token, ref [12], [CLS] and [a link](http://x) and [Sp. 2]", nil},
		{"nested [[a.pdf p.1]]", []Ref{{File: "a.pdf", Page: 1}}},
		{"unclosed [a.pdf p.1", nil},
	}
	for _, tt := range tests {
		got := Parse(tt.in)
		if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Ref{}, "Raw", "Start", "End"), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestParseOffsets(t *testing.T) {
	answer := "DPLL backtracks [lecture_sat.pdf p.42]."
	refs := Parse(answer)
	if len(refs) != 1 || answer[refs[0].Start:refs[0].End] != "[lecture_sat.pdf p.42]" || refs[0].Raw != "[lecture_sat.pdf p.42]" {
		t.Fatalf("Parse(%q) = %+v", answer, refs)
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		answer string
		want   []Citation // Label, File, Page, SourceIndex, Verified, Reason
	}{
		{"valid", "BERT was pre-trained on the BooksCorpus (800M words) and English Wikipedia (2,500M words) [bert.pdf p.5].",
			[]Citation{{Label: "[bert.pdf p.5]", File: "bert.pdf", Page: 5, SourceIndex: 1, Verified: true}}},
		{"tolerant form", "Pre-training BERT large took 4 days on 16 Cloud TPUs [bert.pdf, p. 13].",
			[]Citation{{Label: "[bert.pdf p.13]", File: "bert.pdf", Page: 13, SourceIndex: 2, Verified: true}}},
		{"wrong page", "BERT large was trained on 64 TPU chips [bert.pdf p.9].",
			[]Citation{{Label: "[bert.pdf p.9]", File: "bert.pdf", Page: 9, Reason: ReasonPageNotSource}}},
		{"unknown file", "GPT-3 has 175 billion parameters [gpt3.pdf p.5].",
			[]Citation{{Label: "[gpt3.pdf p.5]", Page: 5, Reason: ReasonUnknownFile}}},
		{"shortened long name", "DPLL is a complete backtracking search algorithm for propositional satisfiability [this_is_a_very_long_scientific_docum....pdf p.42].",
			[]Citation{{Label: "[this_is_a_very_long_scientific_docum....pdf p.42]", File: longName, Page: 42, SourceIndex: 3, Verified: true}}},
		{"full long name", "DPLL decides the satisfiability of formulas in conjunctive normal form [" + longName + " p.42].",
			[]Citation{{Label: "[this_is_a_very_long_scientific_docum....pdf p.42]", File: longName, Page: 42, SourceIndex: 3, Verified: true}}},
		{"unverifiable sentence", "BERT uses a convolutional encoder trained with reinforcement learning [bert.pdf p.5].",
			[]Citation{{Label: "[bert.pdf p.5]", File: "bert.pdf", Page: 5, SourceIndex: 1, Reason: ReasonNoOverlap}}},
		{"wrong number", "The BooksCorpus holds 900M words [bert.pdf p.5].",
			[]Citation{{Label: "[bert.pdf p.5]", File: "bert.pdf", Page: 5, SourceIndex: 1, Reason: ReasonNumbers}}},
		{"french on french", "Un estimateur est sans biais lorsque son espérance est égale au paramètre [cours_stat.pdf p.7].",
			[]Citation{{Label: "[cours_stat.pdf p.7]", File: "cours_stat.pdf", Page: 7, SourceIndex: 4, Verified: true}}},
		{"french on english", "BERT a été pré-entraîné sur BooksCorpus (800M mots) et sur Wikipédia en anglais (2 500M mots) [bert.pdf p.5].",
			[]Citation{{Label: "[bert.pdf p.5]", File: "bert.pdf", Page: 5, SourceIndex: 1, Verified: true}}},
		{"source number", "Each pre-training run took 4 days [Source 2].",
			[]Citation{{Label: "[bert.pdf p.13]", File: "bert.pdf", Page: 13, SourceIndex: 2, Verified: true}}},
		{"source out of range", "Each pre-training run took 4 days [Source 9].",
			[]Citation{{Label: "[Source 9]", Reason: ReasonNoSource}}},
		{"no page", "Each pre-training run took 4 days [bert.pdf].",
			[]Citation{{Label: "[bert.pdf]", File: "bert.pdf", Reason: ReasonNoPage}}},
		{"markdown escape", "Unit propagation repeats until no unit clause is left [lecture\\_sat.pdf p.42].",
			[]Citation{{Label: "[lecture_sat.pdf p.42]", File: "lecture_sat.pdf", Page: 42, SourceIndex: 5, Verified: true}}},
		{"after the full stop", "Unit propagation assigns the remaining literal of each unit clause. [lecture_sat.pdf p.42]",
			[]Citation{{Label: "[lecture_sat.pdf p.42]", File: "lecture_sat.pdf", Page: 42, SourceIndex: 5, Verified: true}}},
		{"two clauses", "BERT base trained on 4 Cloud TPUs [bert.pdf p.13], while DPLL is a backtracking search algorithm for satisfiability [lecture_sat.pdf p.42].",
			[]Citation{
				{Label: "[bert.pdf p.13]", File: "bert.pdf", Page: 13, SourceIndex: 2, Verified: true},
				{Label: "[lecture_sat.pdf p.42]", File: "lecture_sat.pdf", Page: 42, SourceIndex: 5, Reason: ReasonNoOverlap}}},
		{"one bracket two pages", "BERT large trained for 4 days on 64 TPU chips [bert.pdf p.5, p.13].",
			[]Citation{
				{Label: "[bert.pdf p.5]", File: "bert.pdf", Page: 5, SourceIndex: 1, Reason: ReasonNoOverlap},
				{Label: "[bert.pdf p.13]", File: "bert.pdf", Page: 13, SourceIndex: 2, Verified: true}}},
		{"name without extension", "Unit propagation repeats until no unit clause is left [lecture_sat p.42].",
			[]Citation{{Label: "[lecture_sat.pdf p.42]", File: "lecture_sat.pdf", Page: 42, SourceIndex: 5, Verified: true}}},
		{"name elided with an ellipsis", "DPLL decides satisfiability of formulas in conjunctive normal form [this_is_a_very_long…indeed.pdf p.42].",
			[]Citation{{Label: "[this_is_a_very_long_scientific_docum....pdf p.42]", File: longName, Page: 42, SourceIndex: 3, Verified: true}}},
		{"no claim", "[bert.pdf p.5]", []Citation{{Label: "[bert.pdf p.5]", File: "bert.pdf", Page: 5, Reason: ReasonNoClaim}}},
		{"no citation", "The documents do not say.", nil},
	}
	opts := cmpopts.IgnoreFields(Citation{}, "Raw", "Overlap", "Claim", "Start", "End")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Check(tt.answer, sources)
			if diff := cmp.Diff(tt.want, got, opts, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Check(%q) (-want +got):\n%s\nclaims/overlaps: %s", tt.answer, diff, describe(got))
			}
		})
	}
}

func describe(cits []Citation) string {
	s := ""
	for _, c := range cits {
		s += "\n  " + c.Claim + " -> " + c.Reason
	}
	return s
}

func TestClaims(t *testing.T) {
	answer := "BERT has two sizes. Base was trained on 4 Cloud TPUs [bert.pdf p.13] and large on 16 Cloud TPUs, e.g. 64 chips [bert.pdf p.13][Source 2].\n- Unit clauses propagate [lecture_sat.pdf p.42]"
	var claims []string
	for _, c := range Check(answer, sources) {
		claims = append(claims, c.Claim)
	}
	want := []string{
		"Base was trained on 4 Cloud TPUs",
		"and large on 16 Cloud TPUs, e.g. 64 chips",
		"and large on 16 Cloud TPUs, e.g. 64 chips",
		"Unit clauses propagate",
	}
	if diff := cmp.Diff(want, claims); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
}

func TestValidPct(t *testing.T) {
	if _, ok := ValidPct(nil); ok {
		t.Error("ValidPct(nil) ok")
	}
	got, ok := ValidPct([]Citation{{Verified: true}, {}, {Verified: true}, {Verified: true}})
	if !ok || got != 75 {
		t.Errorf("ValidPct = %v, %v; want 75, true", got, ok)
	}
}

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"The models were trained on the training sets.", []string{"model", "train", "set"}},
		{"Les réseaux de neurones et le modèle probabiliste", []string{"reseau", "neuron", "model", "probab"}},
		{"probability, précision, 41.8% vs 41,8 %, 2,500M words, 3 layers in 2019", []string{"probab", "precis", "41.8", "vs", "2.500m", "word", "3", "layer", "2019"}},
		{"l'apprentissage statistique", []string{"appren", "statis"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Terms(tt.in)); diff != "" {
			t.Errorf("Terms(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestCheckDocID: a resolved citation carries its source's document id,
// so the viewer can open it; an unresolved one carries none.
func TestCheckDocID(t *testing.T) {
	hits := []corpus.Hit{
		{File: "a.pdf", Page: 3, DocID: "doc-a", Text: "Unit propagation assigns the only remaining literal of a unit clause."},
		{File: "b.pdf", Page: 7, DocID: "doc-b", Text: "Random 3-SAT is hardest near a clause-to-variable ratio of 4.26."},
	}
	got := Check("Unit propagation assigns the remaining literal of a unit clause [a.pdf p.3]. "+
		"Random 3-SAT is hardest near a ratio of 4.26 [Source 2]. It is old [c.pdf p.1].", hits)
	var ids []string
	for _, c := range got {
		ids = append(ids, c.DocID)
	}
	if diff := cmp.Diff([]string{"doc-a", "doc-b", ""}, ids); diff != "" {
		t.Errorf("doc ids (-want +got):\n%s", diff)
	}
}

// A slide deck's citation reads "slide N", is checked like a page's and
// keeps its unit in the label.
func TestSlideCitation(t *testing.T) {
	refs := Parse("Hexokinase acts first [cours3.pptx slide 12]; see also [cours3.pptx slides 2-3].")
	var got []Ref
	for _, r := range refs {
		got = append(got, Ref{File: r.File, Page: r.Page})
	}
	want := []Ref{{File: "cours3.pptx", Page: 12}, {File: "cours3.pptx", Page: 2}, {File: "cours3.pptx", Page: 3}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Parse (-want +got):\n%s", diff)
	}
	hits := []corpus.Hit{{File: "cours3.pptx", Unit: corpus.UnitSlide, Page: 12, DocID: "d", Text: "Hexokinase phosphorylates glucose: the first step of glycolysis."}}
	cits := Check("Hexokinase phosphorylates glucose in the first step of glycolysis [cours3.pptx slide 12].", hits)
	if len(cits) != 1 || !cits[0].Verified || cits[0].Label != "[cours3.pptx slide 12]" || cits[0].Page != 12 {
		t.Fatalf("Check = %+v, want one verified citation labelled [cours3.pptx slide 12]", cits)
	}
}
