package langid

import (
	"runtime"
	"strings"
	"testing"
)

// frenchPage is a page of about 3,000 characters of distinct sentences: a
// heading, prose, a formula line and a page number, as extracted from a
// PDF. (Repeating one sentence would flatter lingua, which scores each
// distinct n-gram once.)
var frenchPage = strings.Join([]string{
	"2.3 Analyse du microbiote pulmonaire",
	"",
	sentences["fr"],
	"Les échantillons d'expectoration ont été recueillis lors des consultations de suivi, puis congelés à moins quatre-vingts degrés " +
		"jusqu'à l'extraction de l'ADN. Le gène codant l'ARN ribosomique 16S a été amplifié par PCR et séquencé sur une plateforme " +
		"de séquençage à haut débit, ce qui a fourni en moyenne quarante mille lectures par échantillon.",
	"Après le filtrage des lectures de mauvaise qualité, les séquences ont été regroupées en unités taxonomiques opérationnelles " +
		"au seuil de similarité de quatre-vingt-dix-sept pour cent. La diversité de chaque échantillon a été résumée par l'indice de " +
		"Shannon, et la dissimilarité entre échantillons par la distance de Bray-Curtis.",
	"H = −Σ p_i log p_i,   n = 48,   p < 0,05",
	"Nous avons observé que la diversité bactérienne diminue avec l'âge des patients et avec le nombre de cures d'antibiotiques " +
		"reçues au cours de l'année précédente. Cette baisse s'accompagne d'une augmentation relative de Pseudomonas aeruginosa, " +
		"dont la dominance est associée à une dégradation de la fonction respiratoire mesurée par le volume expiratoire maximal.",
	"Pour tester ces associations, nous avons ajusté un modèle linéaire à effets mixtes, avec un effet aléatoire par patient afin " +
		"de tenir compte des mesures répétées. Les intervalles de confiance ont été estimés par bootstrap, en rééchantillonnant les " +
		"patients plutôt que les prélèvements, et les valeurs de p ont été corrigées pour les comparaisons multiples.",
	"Ces résultats doivent toutefois être interprétés avec prudence : la taille de la cohorte reste modeste, et les patients " +
		"les plus gravement atteints sont surreprésentés parmi ceux qui produisent spontanément des expectorations. Une étude " +
		"prospective multicentrique permettrait de confirmer ces tendances et d'en préciser la portée clinique.",
	"Enfin, la comparaison avec les témoins sains montre que le microbiote des patients jeunes reste proche de celui de la " +
		"population générale, ce qui plaide pour une surveillance précoce. Les données brutes et le code des analyses sont " +
		"déposés dans un entrepôt public afin que d'autres équipes puissent reproduire chacune des figures de ce chapitre.",
	"La principale limite de ce travail tient à la méthode elle-même : le séquençage du gène 16S ne distingue pas toujours " +
		"les espèces proches et ne dit rien de l'activité des bactéries détectées. Une approche métagénomique, plus coûteuse, " +
		"permettrait d'identifier les gènes de résistance et les voies métaboliques présentes dans chaque prélèvement.",
	"Tableau 4 – Diversité moyenne (écart-type) selon le génotype CFTR et la colonisation chronique.",
	"",
	"27",
}, "\n")

func BenchmarkDetectPage(b *testing.B) {
	detector() // the one-off model loading is not part of a page's cost
	b.Run("sampled", func(b *testing.B) {
		b.SetBytes(int64(len(frenchPage)))
		for b.Loop() {
			if Detect(frenchPage).Lang != "fr" {
				b.Fatal("not French")
			}
		}
	})
	// The same page without the 2 KB cap, side by side for the ratio.
	b.Run("whole", func(b *testing.B) {
		b.SetBytes(int64(len(frenchPage)))
		for b.Loop() {
			if decide(guess(frenchPage, len(frenchPage))).Lang != "fr" {
				b.Fatal("not French")
			}
		}
	})
}

func BenchmarkDetectShort(b *testing.B) {
	detector()
	text := "La régression logistique estime la probabilité qu'un patient développe la maladie."
	for b.Loop() {
		Detect(text)
	}
}

// TestModelMemory guards the choice of the low-accuracy mode: it keeps
// only the trigram models (about 7 MB of live heap for seven languages),
// where the high-accuracy mode holds about 125 MB once a short text has
// made it load its other models.
func TestModelMemory(t *testing.T) {
	for _, lang := range languages {
		Detect(sentences[lang])
		Detect(sentences[lang][:80]) // short texts load more models in high-accuracy mode
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	const budget = 48 << 20
	t.Logf("live heap after detecting every language: %.1f MB", float64(m.HeapAlloc)/(1<<20))
	if m.HeapAlloc > budget {
		t.Errorf("live heap %d MB after detection, budget %d MB: did the detector leave low-accuracy mode?", m.HeapAlloc>>20, budget>>20)
	}
}
