//go:build tune

package langid

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	lingua "github.com/pemistahl/lingua-go"
)

// TestEvaluate measures accuracy by text length on real prose in the seven
// languages, for the low- and high-accuracy modes, and the thresholds that
// Detect applies. It is the source of the numbers quoted in README.md and
// runs only on request, since it renders a thousand man pages and loads the
// high-accuracy models (about 300 MB). An experiment, not a check: it
// builds only with the tag "tune" (`make test` vets it):
//
//	go test -tags tune -run Evaluate -v ./backend/langid/
//
// The prose is Debian's translated manual pages (/usr/share/man/<lang>, the
// English ones from /usr/share/man/man*), split into paragraphs of at least
// 300 letters. Translations leave some paragraphs in English, so a
// paragraph is kept only when lingua, reading all of it, agrees with its
// directory: the short prefixes measured below are then labelled by the
// long paragraphs they start.
func TestEvaluate(t *testing.T) {
	if _, err := exec.LookPath("man"); err != nil {
		t.Fatal("the measurement reads man pages, and man is not installed (apt install man-db manpages manpages-fr)")
	}
	corpus := map[string][]string{}
	for _, lang := range languages {
		paras := manParagraphs(t, lang, 300)
		if len(paras) < 50 {
			t.Fatalf("only %d usable %s paragraphs in the man pages: install manpages (en) and manpages-fr", len(paras), lang)
		}
		corpus[lang] = paras
	}
	high := lingua.NewLanguageDetectorBuilder().FromLanguages(linguaLanguages()...).WithPreloadedLanguageModels().Build()
	var sb strings.Builder
	fmt.Fprintf(&sb, "\nletters | low: acc   | high: acc  | Detect: acc on labelled / share labelled\n")
	for _, n := range []int{20, 40, 60, 80, 100, 120, 200} {
		var total, lowOK, highOK, labelled, detectOK int
		for _, lang := range languages {
			for _, p := range corpus[lang] {
				text := letterPrefix(p, n)
				total++
				if guess(text, sampleBytes).lang == lang {
					lowOK++
				}
				if code(high.ComputeLanguageConfidenceValues(text)[0].Language()) == lang {
					highOK++
				}
				if r := Detect(text); r.Lang != Undetermined {
					labelled++
					if r.Lang == lang {
						detectOK++
					}
				}
			}
		}
		fmt.Fprintf(&sb, "%7d | %8.1f%% | %9.1f%% | %6.1f%% / %5.1f%%\n", n,
			pct(lowOK, total), pct(highOK, total), pct(detectOK, labelled), pct(labelled, total))
		if n >= minLetters+20 && pct(detectOK, labelled) < 95 {
			t.Errorf("Detect is right on %.1f%% of %d-letter texts, want >= 95%%", pct(detectOK, labelled), n)
		}
	}
	t.Log(sb.String())
	evaluatePDFPages(t)
}

// evaluatePDFPages reports Detect against each shared PDF's language, by
// page size, with the latency per page.
func evaluatePDFPages(t *testing.T) {
	docs := map[string]string{
		"devlin2019_bert.pdf": "en", "he2015_resnet.pdf": "en", "vaswani2017_attention_is_all_you_need.pdf": "en",
		"shannon1948_mathematical_theory_of_communication.pdf":     "en",
		"okasaki1996_purely_functional_data_structures_thesis.pdf": "en",
		"rouviere2019_intro_statistical_learning_slides.pdf":       "en",
		"jegou_statistique_inferentielle_slides_fr.pdf":            "fr",
		"schutz2017_these_microbiote_mucoviscidose_fr.pdf":         "fr",
	}
	bounds := []int{1, minLetters, shortLetters, 400, 1 << 30}
	right, wrong, und := make([]int, len(bounds)), make([]int, len(bounds)), make([]int, len(bounds))
	var elapsed time.Duration
	var pages int
	for file, want := range docs {
		for i, text := range pdfPages(t, file) {
			n := letterCount(text)
			if n == 0 {
				continue
			}
			start := time.Now()
			r := Detect(text)
			elapsed += time.Since(start)
			pages++
			b := 0
			for b+1 < len(bounds) && n >= bounds[b+1] {
				b++
			}
			switch r.Lang {
			case Undetermined:
				und[b]++
			case want:
				right[b]++
			default:
				wrong[b]++
				t.Logf("%s p%d (%d letters): %s %.2f, document is %s", file, i+1, n, r.Lang, r.Confidence, want)
			}
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "\nPDF pages by letters: right / other language / undetermined\n")
	for b := 0; b+1 < len(bounds); b++ {
		fmt.Fprintf(&sb, "[%d, %d): %d / %d / %d\n", bounds[b], bounds[b+1], right[b], wrong[b], und[b])
	}
	fmt.Fprintf(&sb, "%.2f ms per page over %d pages\n", float64(elapsed.Microseconds())/1000/float64(max(pages, 1)), pages)
	t.Log(sb.String())
}

// manParagraphs renders the man pages of one language and returns their
// paragraphs of at least minLen letters that lingua, reading them whole,
// puts in that language.
func manParagraphs(t *testing.T, lang string, minLen int) []string {
	dirs := []string{filepath.Join("/usr/share/man", lang)}
	if lang == "en" {
		dirs = []string{"/usr/share/man/man1", "/usr/share/man/man5", "/usr/share/man/man8"}
	}
	var files []string
	for _, d := range dirs {
		filepath.WalkDir(d, func(path string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				files = append(files, path)
			}
			return nil
		})
	}
	const maxParas = 300
	var paras []string
	for _, f := range files {
		out, err := exec.Command("man", "-l", "-E", "UTF-8", "--nh", "--nj", f).Output()
		if err != nil {
			continue
		}
		for _, p := range strings.Split(string(out), "\n\n") {
			p = strings.Join(strings.Fields(p), " ")
			if letterCount(p) >= minLen && guess(p, len(p)).lang == lang {
				paras = append(paras, p)
			}
		}
		if len(paras) >= 3*maxParas {
			break
		}
	}
	t.Logf("%s: %d paragraphs from %d man pages", lang, len(paras), len(files))
	if len(paras) > maxParas { // spread the sample over the pages
		spread := make([]string, maxParas)
		for i := range spread {
			spread[i] = paras[i*len(paras)/maxParas]
		}
		paras = spread
	}
	return paras
}

// letterPrefix returns the words of text up to the first n letters.
func letterPrefix(text string, n int) string {
	ws, _ := words(text, len(text))
	count := 0
	for i, r := range ws {
		if r == ' ' && count >= n {
			return ws[:i]
		}
		if unicode.IsLetter(r) {
			count++
		}
	}
	return ws
}

func pct(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }
