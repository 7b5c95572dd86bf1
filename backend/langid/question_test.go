package langid

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuestion: the questions of the evaluation set (testdata, 208
// questions over the ten PDFs, written in each document's language: the
// French ones on the files named *_fr.pdf) are told apart, where Detect
// leaves the short ones undetermined; no French question passes for
// English (it would get the English-only figure list).
func TestQuestion(t *testing.T) {
	total, right, undetermined := map[string]int{}, map[string]int{}, 0
	rightAmong := 0 // chosen between English and French, as in a session of both
	for _, name := range []string{"pdf_questions.jsonl", "visual_questions.jsonl"} {
		f, err := os.Open(filepath.Join("..", "..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var q struct{ ID, File, Question string }
			if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
				t.Fatal(err)
			}
			want := "en"
			if strings.Contains(q.File, "_fr") {
				want = "fr"
			}
			total[want]++
			got := Question(q.Question)
			switch {
			case got.Lang == want:
				right[want]++
			case want == "fr" && got.Lang == "en":
				t.Errorf("%s: the French question %q passes for English", q.ID, q.Question)
			default:
				t.Logf("%s: %q detected %q (%.2f), want %q", q.ID, q.Question, got.Lang, got.Confidence, want)
			}
			if Question(q.Question, "en", "fr").Lang == want {
				rightAmong++
			}
			if Detect(q.Question).Lang == Undetermined {
				undetermined++
			}
		}
		f.Close()
	}
	t.Logf("English %d/%d, French %d/%d; between English and French %d/%d; Detect leaves %d undetermined",
		right["en"], total["en"], right["fr"], total["fr"], rightAmong, total["en"]+total["fr"], undetermined)
	if total["en"] < 100 || total["fr"] < 50 {
		t.Fatalf("questions: %v", total)
	}
	if right["en"] < total["en"]*98/100 || right["fr"] < total["fr"]*98/100 {
		t.Errorf("English %d/%d, French %d/%d right: want 98%% each", right["en"], total["en"], right["fr"], total["fr"])
	}
	if n := total["en"] + total["fr"]; rightAmong < n*98/100 {
		t.Errorf("between English and French %d/%d right: want 98%%", rightAmong, n)
	}

	for q, want := range map[string]string{
		"What does Figure 3 show?":       "en",
		"Show the loss curve":            "en",
		"Que montre la figure 3 ?":       "fr",
		"Où est l'encodeur ?":            "fr",
		"Wie sieht die Architektur aus?": "de",
		"¿Qué muestra la figura 3?":      "es",
		"Fig. 3?":                        Undetermined, // too few letters
		"x² + y² = 1":                    Undetermined,
	} {
		if got := Question(q); got.Lang != want {
			t.Errorf("Question(%q) = %q (%.2f), want %q", q, got.Lang, got.Confidence, want)
		}
	}
}

func BenchmarkQuestion(b *testing.B) {
	detector()
	for b.Loop() {
		Question("Quelle figure montre le taux d'erreur de chaque réseau ?")
	}
}

// TestQuestionAmong: limited to a session's languages, a short query is
// told apart where lingua over every language errs; a single candidate
// is chosen whenever lingua gives it any weight.
func TestQuestionAmong(t *testing.T) {
	for _, c := range []struct {
		q     string
		among []string
		want  string
	}{
		{"What is BERT?", nil, "de"}, // the error the limit fixes
		{"What is BERT?", []string{"en", "fr"}, "en"},
		{"histogram of the data", []string{"en", "fr"}, "en"},
		{"Quelle figure montre le taux d'erreur ?", []string{"en", "fr"}, "fr"},
		{"Wie sieht die Architektur aus?", []string{"de", "en", "fr"}, "de"},
		{"confusion matrix", []string{"en"}, "en"},
		{"Fig. 3?", []string{"en"}, Undetermined}, // too few letters
	} {
		got := Question(c.q, c.among...)
		if got.Lang != c.want {
			t.Errorf("Question(%q, %v) = %q (%.2f), want %q", c.q, c.among, got.Lang, got.Confidence, c.want)
		}
		if got.Lang != Undetermined && (got.Confidence <= 0 || got.Confidence > 1) {
			t.Errorf("Question(%q, %v): confidence %v", c.q, c.among, got.Confidence)
		}
	}
}
