package main

import (
	"vika/backend/corpus"
	"vika/backend/docserve"
	"vika/backend/engine"
	"vika/backend/llm"
	"vika/backend/mindmap"
	"vika/backend/notes"
	"vika/backend/prompt"
	"vika/backend/rag"
	"vika/backend/retrieve"
	"vika/backend/session"
)

// catalogue is what the page takes from Go instead of keeping copies:
// settings defaults, limits, providers, event names and the answer-text
// batching interval. catalogue_test.go writes it to
// frontend/src/lib/api/catalogue.json, which the page imports, and fails
// when that file is stale.
type catalogue struct {
	Defaults session.Settings `json:"defaults"`
	MinK     int              `json:"min_k"`
	MaxK     int              `json:"max_k"`
	// MaxMultiQueryVariants bounds Settings.MultiQueryVariants (from 1).
	MaxMultiQueryVariants int `json:"max_multi_query_variants"`
	// MaxDescribe bounds the figures and tables described a document.
	MaxDescribe int `json:"max_describe"`
	// MaxSummarize bounds the passages summarised a document.
	MaxSummarize int `json:"max_summarize"`
	// MaxSelection bounds a passage selected in the viewer and asked
	// about, in characters (corpus.MaxSelectionRunes).
	MaxSelection int `json:"max_selection"`
	// SelectionID is the chunk id of a selection among an answer's
	// sources (corpus.SelectionID).
	SelectionID string `json:"selection_id"`
	// The per-pipeline controls' bounds: the rerank depth (from 1), the
	// figures from the image list (from 0, off), the passage size; the
	// overlap goes from 0 to a third of the size.
	MaxRerankDepth int `json:"max_rerank_depth"`
	MaxFigureDepth int `json:"max_figure_depth"`
	MinChunkSize   int `json:"min_chunk_size"`
	MaxChunkSize   int `json:"max_chunk_size"`
	// Fusions are the fusion methods a search may ask for besides ""
	// (the embedding model's profile): retrieve.Fusions.
	Fusions []retrieve.Fusion `json:"fusions"`
	// Modes are the retrieval modes a search may ask for besides ""
	// (the embedding model's profile), in the order the page offers them.
	Modes []retrieve.Mode `json:"modes"`
	Kinds kinds           `json:"kinds"`
	// MindMap names the kinds of a mind map's nodes (package mindmap).
	MindMap   mindmapKinds `json:"mindmap"`
	Providers []provider   `json:"providers"`
	Events    events       `json:"events"`
	// FlushMS is how often streamed answer text is shown, in
	// milliseconds: Go batches deltas at this interval, the page applies
	// them at the same one.
	FlushMS int `json:"flush_ms"`
	// Viewer bounds the window's pdf.js (canvas, images, render watchdog).
	Viewer docserve.ViewerLimits `json:"viewer"`
	Stages stages                `json:"stages"`
	// AskDefaults are the ask options of the default settings
	// (Settings.Options), which the page uses until the session sends the
	// options of the saved ones (AskOptions).
	AskDefaults rag.Options `json:"ask_defaults"`
	// Notes are the student's highlights' colours (notes.Palette) and the
	// bounds of a note.
	Notes notesCatalogue `json:"notes"`
}

// notesCatalogue is what the page needs of package notes.
type notesCatalogue struct {
	Palette  []notes.Swatch   `json:"palette"`
	MaxText  int              `json:"max_text"`
	MaxNotes int              `json:"max_notes"`
	Kind     corpus.ChunkKind `json:"kind"` // the passages' kind (corpus.ChunkMine)
}

// stages are the stage lists of the events: an ingest job's in order
// (terminal: those that end it), an answer's status, a re-embedding's.
type stages struct {
	Ingest   []string `json:"ingest"`
	Terminal []string `json:"terminal"`
	Answer   []string `json:"answer"`
}

// kinds are the kinds of passages (corpus.TextKinds, LayoutKinds and
// MarkKinds): the page names them, and has a tab for each layout kind.
type kinds struct {
	Text   []corpus.ChunkKind `json:"text"`
	Layout []corpus.ChunkKind `json:"layout"`
	Marks  []corpus.ChunkKind `json:"marks"`
}

type mindmapKinds struct {
	Course   string `json:"course"`
	Document string `json:"document"`
	Section  string `json:"section"`
	Pages    string `json:"pages"`
	Term     string `json:"term"`
}

type provider struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Local bool   `json:"local"`
}

type events struct {
	IngestProgress string `json:"ingest_progress"`
	ModelProgress  string `json:"model_progress"`
	ModelReembed   string `json:"model_reembed"`
	AnswerPrefix   string `json:"answer_prefix"` // + the answer's id
	StudyPrefix    string `json:"study_prefix"`  // + a study job's id
	CacheNotice    string `json:"cache_notice"`
	Rechunk        string `json:"rechunk"` // RechunkAll's progress
	// ConversationRestored: a course file's turns were added.
	ConversationRestored string `json:"conversation_restored"`
	// QuitRequested: closing the window waits for the quit question.
	QuitRequested string `json:"quit_requested"`
}

func buildCatalogue() (catalogue, error) {
	c := catalogue{
		Defaults:              session.DefaultSettings(),
		MinK:                  1,
		MaxK:                  rag.MaxK,
		MaxMultiQueryVariants: prompt.MaxRephrasings,
		MaxDescribe:           session.MaxDescribe,
		MaxSummarize:          session.MaxSummarize,
		MaxSelection:          corpus.MaxSelectionRunes,
		SelectionID:           corpus.SelectionID,
		MaxRerankDepth:        retrieve.MaxRerankDepth,
		MaxFigureDepth:        retrieve.MaxFigureDepth,
		MinChunkSize:          session.MinChunkSize,
		MaxChunkSize:          session.MaxChunkSize,
		Fusions:               retrieve.Fusions,
		Modes:                 []retrieve.Mode{retrieve.ModeDense, retrieve.ModeBM25, retrieve.ModeHybrid},
		Kinds:                 kinds{Text: corpus.TextKinds, Layout: corpus.LayoutKinds, Marks: corpus.MarkKinds},
		MindMap: mindmapKinds{Course: mindmap.KindCourse, Document: mindmap.KindDocument, Section: mindmap.KindSection,
			Pages: mindmap.KindPages, Term: mindmap.KindTerm},
		Events: events{
			IngestProgress:       session.EventIngestProgress,
			ModelProgress:        session.EventModelProgress,
			ModelReembed:         session.EventModelReembed,
			AnswerPrefix:         session.EventAnswerPrefix,
			StudyPrefix:          session.EventStudyPrefix,
			CacheNotice:          session.EventCacheNotice,
			Rechunk:              session.EventRechunk,
			ConversationRestored: session.EventConversationRestored,
			QuitRequested:        session.EventQuitRequested,
		},
		FlushMS: int(rag.FlushInterval.Milliseconds()),
		Viewer:  docserve.Viewer,
		Stages: stages{
			Ingest: engine.Stages, Terminal: engine.TerminalStages,
			Answer: rag.Stages,
		},
		AskDefaults: session.DefaultSettings().Options(),
		Notes:       notesCatalogue{Palette: notes.Palette, MaxText: notes.MaxTextRunes, MaxNotes: notes.MaxNotes, Kind: corpus.ChunkMine},
	}
	llms, err := llm.LoadCatalogue()
	if err != nil {
		return c, err
	}
	for _, p := range llms.Providers {
		c.Providers = append(c.Providers, provider{ID: p.ID, Name: p.Name, Local: p.Local})
	}
	return c, nil
}
