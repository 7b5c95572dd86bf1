package session

// The names of the events a session emits (Options.Emit), the only ones
// the window sends: the frontend's event map (frontend/src/lib/api,
// through the catalogue) mirrors them.
const (
	// EventIngestProgress carries an engine.Progress for every step of an
	// add or a description started by StartFile, StartBytes or Describe.
	EventIngestProgress = "ingest:progress"
	// EventModelProgress carries the models.Event values of a download.
	EventModelProgress = "models:progress"
	// EventModelReembed carries engine.ReembedProgress values: the
	// session's passages embedded again by a newly installed model, then
	// the switch.
	EventModelReembed = "models:reembed"
	// EventAnswerPrefix + an answer's id names the channel of its
	// rag.Event values.
	EventAnswerPrefix = "answer:"
	// EventStudyPrefix + a study job's id names the channel of its
	// study.Event values (StartStudyGuide, StartStudyCards).
	EventStudyPrefix = "study:"
	// EventCacheNotice carries a message.Message from the document cache
	// (an entry damaged and rebuilt, the disk full).
	EventCacheNotice = "cache:notice"
	// EventRechunk carries a RechunkProgress of RechunkAll: the documents
	// cut into passages again so far.
	EventRechunk = "library:rechunk"
	// EventConversationRestored carries the number of turns a course file
	// brought into the conversation (OpenCourse), for the chat to show.
	EventConversationRestored = "conversation:restored"
	// EventQuitRequested carries nothing: the window was asked to close
	// while the session holds unsaved work (Unsaved), and stays open for
	// the page to ask Save course / Don't save / Cancel.
	EventQuitRequested = "app:quit-requested"
)
