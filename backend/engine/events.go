package engine

// Event names emitted by app.go (the backend never imports Wails). Keep
// them in sync with the TypeScript event map of the frontend.
const (
	// EventIngestProgress carries a Progress for every step of a job
	// started with StartFile or StartBytes.
	EventIngestProgress = "ingest:progress"
	// EventCacheNotice carries a message.Message from the document cache
	// (an entry damaged and rebuilt, the disk full).
	EventCacheNotice = "cache:notice"
)
