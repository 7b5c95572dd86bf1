package langid

import "slices"

// minQuestionLetters is the fewest letters a question needs for Question
// to name its language: "Fig. 3?" gives lingua too little to go on.
const minQuestionLetters = 10

// Question returns the language of a short text such as a question, which
// Detect would mostly leave undetermined (its thresholds are for pages: a
// question holds 20 to 120 letters): lingua's best language over its
// words, or Undetermined when they hold fewer than minQuestionLetters
// letters or lingua cannot choose.
//
// among, if given, limits the choice to those languages (ISO 639-1
// codes), e.g. the languages of the documents a question is asked of:
// "What is BERT?" passes for German among every language lingua knows
// here, and for English between English and French.
// The confidence is then the chosen language's share of the candidates'.
func Question(text string, among ...string) Result {
	sample, letters := words(text, sampleBytes)
	if letters < minQuestionLetters {
		return Result{}
	}
	var best, second, sum float64
	lang := Undetermined
	for _, v := range detector().ComputeLanguageConfidenceValues(sample) {
		c := code(v.Language())
		if len(among) > 0 && !slices.Contains(among, c) {
			continue
		}
		sum += v.Value()
		switch {
		case v.Value() > best:
			best, second, lang = v.Value(), best, c
		case v.Value() > second:
			second = v.Value()
		}
	}
	if best <= 0 || best == second {
		return Result{}
	}
	return Result{Lang: lang, Confidence: best / sum}
}
