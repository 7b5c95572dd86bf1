package corpus

import "testing"

func TestCitationLabel(t *testing.T) {
	tests := []struct {
		file string
		page int
		want string
	}{
		{"lecture_sat.pdf", 42, "[lecture_sat.pdf p.42]"},
		{"this_is_a_very_long_scientific_document_name_indeed.pdf", 42, "[this_is_a_very_long_scientific_docum....pdf p.42]"},
		{"cours é.pdf", 1, "[cours é.pdf p.1]"},
	}
	for _, tt := range tests {
		if got := CitationLabel(tt.file, "", tt.page); got != tt.want {
			t.Errorf("CitationLabel(%q, \"\", %d) = %q, want %q", tt.file, tt.page, got, tt.want)
		}
	}
	if got, want := CitationLabel("cours3.pptx", UnitSlide, 12), "[cours3.pptx slide 12]"; got != want {
		t.Errorf("a slide deck's label = %q, want %q", got, want)
	}
}
