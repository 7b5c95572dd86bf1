package message

// Note codes: why one of the student's highlights or notes was not kept,
// or why its copy or export failed.
const (
	NoteInvalid = "note.invalid" // field: which part of the note is wrong (a bug of the window, or a course file's)
	NoteUnknown = "note.unknown" // the note is not in the session (its document was removed)
	NotesFull   = "note.full"    // the session holds the most notes it keeps
	NotesNone   = "note.none"    // nothing to export or make cards from: no note in the scope
)

func init() {
	english[NoteInvalid] = func(p Params) string {
		return "This note cannot be kept: its " + str(p, "field") + " is not valid."
	}
	english[NoteUnknown] = fixed("This note is no longer in the session: its document was removed.")
	english[NotesFull] = fixed("You have made the most notes a session keeps: delete some to add others.")
	english[NotesNone] = fixed("There are no highlights or notes here yet.")
}
