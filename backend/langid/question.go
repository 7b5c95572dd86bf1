package langid

// minQuestionLetters is the fewest letters a question needs for Question
// to name its language: "What is BERT?" gives lingua too little to go on.
const minQuestionLetters = 10

// Question returns the language of a short text such as a question, which
// Detect would mostly leave undetermined (its thresholds are for pages: a
// question holds 20 to 120 letters): lingua's best language over its
// words, or Undetermined when they hold fewer than minQuestionLetters
// letters or lingua cannot choose.
func Question(text string) Result {
	e := guess(text, sampleBytes)
	if e.lang == Undetermined || e.letters < minQuestionLetters {
		return Result{}
	}
	return Result{Lang: e.lang, Confidence: e.confidence}
}
