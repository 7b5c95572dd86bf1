package ocr

import (
	"math"
	"testing"
)

func TestLevenshtein(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"", "abc", 3},
		{"kitten", "sitting", 3},
		{"sitting", "kitten", 3},
		{"flaw", "lawn", 2},
		{"été", "ete", 2}, // code points, not bytes
		{"échantillon", "echantillon", 1},
		{"Chao1", "Chaol", 1},
		{"abcdef", "azced", 3},
	}
	for _, tt := range tests {
		if got := Levenshtein(tt.a, tt.b); got != tt.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestCER(t *testing.T) {
	tests := []struct {
		ref, hyp string
		want     float64
	}{
		{"", "", 0},
		{"", "x", 1},
		{"kitten", "sitting", 3.0 / 6},
		{"la  diversité\n\nalpha", " la diversité alpha ", 0},  // white space runs collapse
		{"page 20\f\nsuite", "page 20 suite", 0},               // a form feed is white space
		{"la diversité alpha", "la diversite alpha", 1.0 / 18}, // 18 code points
		{"abc", "abcabc", 1},                                   // insertions count
		{"l’abondance", "l'abondance", 1.0 / 11},               // raw CER keeps typography
	}
	for _, tt := range tests {
		if got := CER(tt.ref, tt.hyp); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("CER(%q, %q) = %v, want %v", tt.ref, tt.hyp, got, tt.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"l’abondance d‘un", "l'abondance d'un"},
		{"Tableau 1 – Exemple — fin, 1 − x", "Tableau 1 - Exemple - fin, 1 - x"},
		{"plusieurs échan-\ntillons", "plusieurs échantillons"},
		{"ap-\n\npartenant", "appartenant"},         // a paragraph split at the hyphen
		{"micro-\nOrganismes", "micro- Organismes"}, // a capital follows: kept
		{"1990-\n2000", "1990- 2000"},               // digits: kept
		{"micro-organismes", "micro-organismes"},    // inner hyphens untouched
		{"ﬁn a² x\u00a0y", "fin a2 x y"},            // NFKC
		{"  Thèse\f\n de  médecine ", "Thèse de médecine"},
		{"Case Kept", "Case Kept"},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
