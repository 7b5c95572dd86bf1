package llm

import (
	"math"
	"regexp"
	"strings"
	"unicode"
)

// Query is what the router looks at: the user's question (not the whole
// prompt with its passages), how deep the conversation already is, and the
// model the user picked, if any.
type Query struct {
	Question string
	Turns    int    // earlier question/answer exchanges in this conversation
	Model    string // "provider/id" for a manual choice; "" for automatic routing
	// Vision: the answer should look at images (figure or table crops), so
	// vision-capable models go first (Model.Vision).
	Vision bool
}

// Features are the parts of a complexity score; Score is their sum, at most 1.
type Features struct {
	Length    float64 `json:"length"`     // 0 up to 15 words, rising to 0.20 at 100 words
	MultiPart float64 `json:"multi_part"` // 0.15 per part beyond the first (question marks, enumerations, "and why"...), at most 0.30
	Reasoning float64 `json:"reasoning"`  // prove/derive 0.35, compare/contrast 0.30, why/explain 0.15 (en, fr); summed, at most 0.50
	Math      float64 `json:"math"`       // 0.20 when the question has LaTeX, math symbols or equations
	History   float64 `json:"history"`    // 0.05 per earlier exchange, at most 0.15
}

// Complexity is the heuristic score of a question, in [0, 1].
type Complexity struct {
	Score    float64  `json:"score"`
	Features Features `json:"features"`
}

// Score rates how demanding a question is. It is a transparent stand-in for
// RouteLLM's learned routers (which need their weights and a network):
// proofs, derivations and comparisons, several questions in one, mathematics,
// long questions and deep conversations all push it up. With the default
// threshold (0.3) a single proof or comparison request is complex, a single
// "why" is not.
func Score(q Query) Complexity {
	text := normalize(q.Question)
	var f Features
	words := len(strings.Fields(text))
	f.Length = 0.20 * clamp(float64(words-15)/85, 0, 1)
	f.MultiPart = math.Min(0.15*float64(extraParts(q.Question, text)), 0.30)
	f.Reasoning = reasoning(text)
	if hasMath(q.Question) {
		f.Math = 0.20
	}
	f.History = math.Min(0.05*float64(max(q.Turns, 0)), 0.15)
	s := f.Length + f.MultiPart + f.Reasoning + f.Math + f.History
	return Complexity{Score: round3(math.Min(s, 1)), Features: f}
}

// normalize lowercases, turns punctuation into spaces (letters, accented
// ones included, digits, apostrophes and hyphens stay), and pads with
// spaces so that stems and phrases match at word starts.
func normalize(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '-' {
			return r
		}
		return ' '
	}, s)
	return " " + strings.Join(strings.Fields(s), " ") + " "
}

var (
	// Word stems and phrases, matched at the start of a word.
	strongReasoning = []string{"prove", "proof", "derive", "derivation", "demonstrate", "show that", "formally",
		"prouv", "preuve", "démontr", "démonstration", "dériv", "montrer que", "montrez que"}
	comparative = []string{"compar", "contrast", "difference between", "differences between", "versus", "vs",
		"trade-off", "tradeoff", "pros and cons", "advantages and disadvantages", "evaluat", "assess", "analys", "analyz", "critique",
		"différence entre", "différences entre", "avantages et inconvénients", "évalu", "critiqu"}
	explanatory = []string{"why", "explain", "how does", "how do", "how come", "justify", "intuition",
		"pourquoi", "expliqu", "justifi", "comment fonctionne", "comment marche"}
	// Phrases that open another part of a question.
	joiners = []string{"and why", "and how", "and what", "and explain", "and compare", "then explain", "then compare",
		"et pourquoi", "et comment", "et quel", "et quelle", "puis expliqu", "puis compar"}
)

func reasoning(text string) float64 {
	s := 0.0
	if hasStem(text, strongReasoning) {
		s += 0.35
	}
	if hasStem(text, comparative) {
		s += 0.30
	}
	if hasStem(text, explanatory) {
		s += 0.15
	}
	return math.Min(s, 0.50)
}

func hasStem(text string, stems []string) bool {
	for _, st := range stems {
		if strings.Contains(text, " "+st) {
			return true
		}
	}
	return false
}

var enumRe = regexp.MustCompile(`(?m)^\s*(?:\d+[.)]|\([a-z0-9]\)|[a-z][.)]|[-*•])\s+\S`)

// extraParts counts the parts of a question beyond the first: further
// question marks, items of an enumeration, and joined questions.
func extraParts(raw, text string) int {
	n := max(strings.Count(raw, "?")-1, 0)
	if items := len(enumRe.FindAllString(raw, -1)); items > 1 {
		n += items - 1
	}
	for _, j := range joiners {
		n += strings.Count(text, " "+j+" ")
	}
	return n
}

var mathRe = regexp.MustCompile(`\\[a-zA-Z]{2,}|\$[^$]+\$|[∑∫∂√≤≥≠∀∃∈∉⊂⊆∪∩→⇒⇔≈∞±×÷∇λπσμ]|\b[a-zA-Z0-9]\s*[=<>^]\s*[a-zA-Z0-9(]|\bO\([^)]*\)|\b[a-z]_\{?[a-z0-9]`)

func hasMath(s string) bool { return mathRe.MatchString(s) }

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
