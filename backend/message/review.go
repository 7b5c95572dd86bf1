package message

// Review codes: why a flashcard review or a quiz answer was not recorded.
const (
	ReviewUnknownCard = "review.unknown_card" // the card is not under review (its document was removed)
	ReviewDeckFull    = "review.deck_full"    // the deck holds the most cards a session keeps
	ReviewBadGrade    = "review.bad_grade"    // a grade outside Again to Easy
)

func init() {
	english[ReviewUnknownCard] = fixed("This card is no longer under review: its document was removed.")
	english[ReviewDeckFull] = fixed("The review deck is full: no more flashcards can be added to it this session.")
	english[ReviewBadGrade] = fixed("A card is graded Again, Hard, Good or Easy.")
}
