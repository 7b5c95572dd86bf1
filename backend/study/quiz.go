package study

import (
	"hash/fnv"
	"math/rand/v2"
	"strings"

	"vika/backend/cite"
)

// Quiz item kinds.
const (
	KindChoice = "choice" // multiple choice
	KindShort  = "short"  // short answer
)

// Choices is the most options of a multiple-choice item (the right one
// and its distractors).
const Choices = 4

// QuizItem is one question of a quiz, made from a card.
type QuizItem struct {
	Kind     string   `json:"kind"`
	Question string   `json:"question"`
	Answer   string   `json:"answer"`            // the card's answer, citations removed
	Options  []string `json:"options,omitempty"` // choice: the right answer among the distractors
	Correct  int      `json:"correct"`           // choice: index of the right answer in Options
	Card     Card     `json:"card"`              // the source: label, page, verdict
}

// Quiz makes a quiz from cards: every other item is multiple choice when
// at least two distinct distractors exist, drawn from the other cards'
// answers (never the right answer again, never twice the same), the rest
// short answer. The order of the options is fixed by the question, so
// the same deck gives the same quiz.
func Quiz(cards []Card) []QuizItem {
	answers := make([]string, len(cards))
	for i, c := range cards {
		answers[i] = bare(c.Answer)
	}
	var out []QuizItem
	for i, c := range cards {
		it := QuizItem{Kind: KindShort, Question: c.Question, Answer: answers[i], Card: c}
		if d := distractors(answers, i); i%2 == 0 && len(d) >= 2 {
			it.Kind = KindChoice
			it.Options = append([]string{answers[i]}, d...)
			r := rand.New(rand.NewPCG(seed(c.Question), 0))
			r.Shuffle(len(it.Options), func(a, b int) { it.Options[a], it.Options[b] = it.Options[b], it.Options[a] })
			for k, o := range it.Options {
				if o == answers[i] {
					it.Correct = k
				}
			}
		}
		out = append(out, it)
	}
	return out
}

// distractors are up to Choices-1 answers of the other cards, distinct
// from the right one and from each other (case and spacing aside).
func distractors(answers []string, right int) []string {
	seen := map[string]bool{norm(answers[right]): true}
	var out []string
	for k := 1; k < len(answers) && len(out) < Choices-1; k++ {
		a := answers[(right+k)%len(answers)]
		if n := norm(a); n != "" && !seen[n] {
			seen[n] = true
			out = append(out, a)
		}
	}
	return out
}

// bare is an answer without its citations.
func bare(a string) string {
	refs := cite.Parse(a)
	last := -1
	for i := len(refs) - 1; i >= 0; i-- {
		if refs[i].Start == last {
			continue // a bracket citing several pages gives several refs
		}
		last = refs[i].Start
		a = a[:refs[i].Start] + a[refs[i].End:]
	}
	return strings.Join(strings.Fields(a), " ")
}

func norm(s string) string {
	return strings.ToLower(strings.Trim(strings.Join(strings.Fields(s), " "), " .;!?"))
}

func seed(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
