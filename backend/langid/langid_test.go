package langid

import (
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sentences holds two sentences of scientific prose per language, written
// for these tests.
var sentences = map[string]string{
	"en": "The variance of an unbiased estimator decreases as the sample size grows, so confidence intervals computed from larger samples are narrower. " +
		"We repeated the experiment on three independent cohorts and report the mean effect together with its standard deviation.",
	"fr": "Les bactéries de la flore intestinale participent à la digestion des fibres et à la maturation du système immunitaire. " +
		"Dans cette étude, nous avons comparé la composition du microbiote pulmonaire chez des patients atteints de mucoviscidose et chez des témoins sains.",
	"de": "Die Zellteilung wird durch ein fein abgestimmtes Netzwerk von Proteinen gesteuert, deren Fehlfunktion zur Entstehung von Tumoren beitragen kann. " +
		"Wir haben die Expression dieser Gene in zwanzig Gewebeproben mit einem linearen Regressionsmodell untersucht.",
	"es": "La fotosíntesis permite a las plantas transformar la energía de la luz en energía química almacenada en los azúcares. " +
		"En este trabajo medimos la tasa de crecimiento de las hojas bajo distintas intensidades luminosas y estimamos la correlación entre ambas variables.",
	"it": "L'analisi della varianza permette di verificare se le medie di più gruppi differiscono in modo significativo. " +
		"Nel nostro studio abbiamo misurato la pressione arteriosa di centoventi pazienti e confrontato tre trattamenti con un test non parametrico.",
	"pt": "A resistência aos antibióticos é uma das maiores ameaças à saúde pública, porque as bactérias adquirem genes que as tornam insensíveis aos tratamentos habituais. " +
		"Neste estudo, avaliámos a frequência dessas mutações em amostras recolhidas em quatro hospitais.",
	"nl": "De evolutie van soorten wordt gedreven door natuurlijke selectie, waarbij erfelijke eigenschappen die de overlevingskans vergroten vaker worden doorgegeven. " +
		"In dit onderzoek hebben wij de genetische variatie binnen twee populaties vergeleken met behulp van een statistisch model.",
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"en", sentences["en"], "en"},
		{"fr", sentences["fr"], "fr"},
		{"de", sentences["de"], "de"},
		{"es", sentences["es"], "es"},
		{"it", sentences["it"], "it"},
		{"pt", sentences["pt"], "pt"},
		{"nl", sentences["nl"], "nl"},
		// One sentence, between minLetters and shortLetters letters.
		{"en one sentence", "Gradient descent updates the weights in the direction that lowers the training loss.", "en"},
		{"fr one sentence", "La régression logistique estime la probabilité qu'un patient développe la maladie.", "fr"},
		// Page furniture around the prose does not mislead it.
		{"fr slide", "Introduction\nModèle Statistique\n• L'opération de remontée de l'échantillon à la population est appelée inférence statistique\n12", "fr"},
		{"en with formulas", "Theorem 2. Let X1, ..., Xn be i.i.d. with E[X] = μ and Var(X) = σ² < ∞. " +
			"Then the sample mean converges almost surely to the expected value as n grows without bound.", "en"},
		// Decomposed accents (NFD), as some PDF text layers give them.
		{"fr decomposed accents", "Le mode\u0300le pre\u0301dit la re\u0301ponse immunitaire des patients a\u0300 partir de la se\u0301quence ge\u0301nomique.", "fr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Detect(tt.text)
			if got.Lang != tt.want {
				t.Errorf("Detect(%q) = %+v, want %q", tt.text, got, tt.want)
			}
			if got.Confidence < minShortConfidence || got.Confidence > 1 {
				t.Errorf("Detect(%q).Confidence = %v, want in [%v, 1]", tt.text, got.Confidence, minShortConfidence)
			}
		})
	}
}

func TestDetectUndetermined(t *testing.T) {
	tests := []struct{ name, text string }{
		{"empty", ""},
		{"blank", " \n\t\n  \n"},
		{"page number", "\n\n12\n"},
		{"numbers", "3.14159 2.71828 1.41421 42 1024 -7 +3 × 10^6 0.05"},
		{"formula", "f(x) = a x^2 + b x + c, ∀ x ∈ ℝ, Σ_{i=1}^{n} x_i y_i / n ≤ ε, β̂ = (XᵀX)⁻¹ Xᵀ y"},
		{"table caption", "Table 2. n = 120, p < 0.05, r = 0.83 ± 0.02; 95% CI [0.79, 0.87]"},
		{"title", "Chapitre 3 : Résultats"},
		{"short sentence", "The results are significant."},
		{"plot labels", "−4 −2 0 2 4 −0.05 0.00 0.05 0.10 Log Lambda Coefficients 8 8 8 8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Detect(tt.text); got != (Result{}) {
				t.Errorf("Detect(%q) = %+v, want undetermined", tt.text, got)
			}
		})
	}
}

func TestLanguagesAreKnownToLingua(t *testing.T) {
	got := linguaLanguages() // panics on a code lingua does not know
	if len(got) != len(languages) {
		t.Fatalf("%d lingua languages for %d codes", len(got), len(languages))
	}
	for i, l := range got {
		if code(l) != languages[i] {
			t.Errorf("code %q maps back to %q", languages[i], code(l))
		}
	}
	if diff := cmp.Diff([]string{"en", "fr", "de", "es", "it", "pt", "nl"}, Languages()); diff != "" {
		t.Errorf("Languages() (-want +got):\n%s", diff)
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		name, text string
		max        int
		want       string
		letters    int
	}{
		{"drops numbers, symbols and one-letter tokens", "Let x = 3.5 and y ≥ 2: the sum is 5.", 100, "Let and the sum is", 14},
		{"keeps apostrophe halves of two letters or more", "l'échantillon d'un test", 100, "échantillon un test", 17},
		{"composes decomposed accents", "e\u0301te\u0301 mode\u0300le", 100, "été modèle", 9},
		{"stops before the cap", "alpha beta gamma delta", 16, "alpha beta gamma", 14},
		{"empty", "", 100, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, letters := words(tt.text, tt.max)
			if got != tt.want || letters != tt.letters {
				t.Errorf("words(%q, %d) = %q, %d; want %q, %d", tt.text, tt.max, got, letters, tt.want, tt.letters)
			}
			if n := letterCount(tt.text); tt.max >= len(tt.text) && n != tt.letters {
				t.Errorf("letterCount(%q) = %d, want %d", tt.text, n, tt.letters)
			}
		})
	}
}

func TestDetectSamplesLongText(t *testing.T) {
	// A French page followed by far more English than the sample holds:
	// only the first sampleBytes of words are read.
	text := strings.Repeat(sentences["fr"]+"\n", 12) + strings.Repeat(sentences["en"]+"\n", 200)
	if got := Detect(text); got.Lang != "fr" {
		t.Errorf("Detect(long text starting in French) = %+v, want fr", got)
	}
	sample, _ := words(text, sampleBytes)
	if len(sample) > sampleBytes {
		t.Errorf("sample of %d bytes, want at most %d", len(sample), sampleBytes)
	}
}

func TestDetectConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for _, lang := range languages {
		for range 4 {
			wg.Go(func() {
				if got := Detect(sentences[lang]); got.Lang != lang {
					t.Errorf("concurrent Detect = %+v, want %s", got, lang)
				}
			})
		}
	}
	wg.Wait()
}
