package message

// Study codes: why a study guide, flashcards or a quiz could not be made,
// and why a card was refused. What was made before a failure is kept.
const (
	StudyNeedsModel     = "study.needs_model"      // flashcards and quizzes need a language model
	StudyUnknownSection = "study.unknown_section"  // section: no outline entry of the document has that title
	StudyNoPassages     = "study.no_passages"      // the document or section holds no text to study
	StudyCardNoPage     = "study.card_no_page"     // label, page: a card cites a page the document does not have
	StudyCardNoCitation = "study.card_no_citation" // a card's answer cites no page
	StudyUncited        = "study.uncited"          // a guide line cites no page
	StudyOneDocument    = "study.one_document"     // a section or a selection asked of several documents
	// StudyUnformatted: models (names, in the order asked) replied to a
	// request of a guide or of flashcards with no line in the format asked
	// for (SUMMARY:, TERM:, Q:/A:), and no other model answered it;
	// nothing is shown as done.
	StudyUnformatted = "study.unformatted"
)

func init() {
	english[StudyNeedsModel] = fixed("Flashcards and quizzes need a language model: add an API key (Gemini, Mistral, Groq or OpenRouter) in Settings, or turn on a local Ollama there.")
	english[StudyUnknownSection] = func(p Params) string {
		return "This document has no section titled \"" + str(p, "section") + "\" in its outline."
	}
	english[StudyOneDocument] = fixed("A section or a selection belongs to one document: study it with that document alone.")
	english[StudyNoPassages] = fixed("There is no text to study in this document or section.")
	english[StudyCardNoPage] = func(p Params) string {
		return "A card cited " + str(p, "label") + ", a page the document does not have: it was refused."
	}
	english[StudyUncited] = fixed("cites no page")
	english[StudyCardNoCitation] = fixed("A card's answer cited no page: it was refused.")
	english[StudyUnformatted] = func(p Params) string {
		return "The model's reply did not follow the format asked for (no SUMMARY:, TERM: or Q:/A: line; tried: " + str(p, "models") + "), so nothing was made. Try again, or pick another model."
	}
}
