// Package course reads and writes course files (.vika): one SQLite
// database (modernc.org/sqlite) holding a session's PDFs, what processing
// them produced and their vectors, so that a student can keep a course
// pack or give it to a classmate.
//
// A course file is untrusted input. Open (read.go) checks that it is a
// regular file, its format name and version, that its schema is exactly
// the one Save writes, bounds every size before reading it, re-checks
// each PDF's SHA-256 against its bytes and each row against its checksum,
// and refuses a file that fails any check with a coded error
// (ErrNotCourse, ErrVersion, ErrTampered, ErrDamaged, ErrTooLarge,
// ErrTooSlow); it never executes or trusts anything in it. The processed
// data it returns is still to be checked by its consumer against the PDF
// it belongs to.
//
// Save writes a temporary file beside the target and renames it over the
// target once it is complete and synced: a crash mid-save leaves the old
// file intact.
package course

import (
	"errors"
	"path/filepath"
	"strings"
	"time"

	"vika/backend/message"
)

// Format and Version name the layout; a file of a newer version is
// refused (ErrVersion). Version 2 added the flashcards' reviews and
// version 3 the student's own highlights and notes; a version 1 or 2
// file (without them) is read as it was written.
const (
	Format  = "vika-course"
	Version = 3
	// Ext is the file name extension.
	Ext = ".vika"
)

// IsPath reports whether path names a course file, by its extension in
// any case.
func IsPath(path string) bool { return strings.EqualFold(filepath.Ext(path), Ext) }

// Errors, each with its message code.
var (
	ErrNotCourse = errors.New("not a Vika course file")
	ErrVersion   = errors.New("course file of a newer Vika")
	ErrTampered  = errors.New("a PDF of the course file does not match its fingerprint")
	ErrDamaged   = errors.New("the course file is damaged")
	ErrTooLarge  = errors.New("the course file is over a size limit")
	ErrTooSlow   = errors.New("the course file took too long to check")
)

func init() {
	message.Register(ErrNotCourse, message.CourseNotCourse)
	message.Register(ErrVersion, message.CourseVersion)
	message.Register(ErrTampered, message.CourseTampered)
	message.Register(ErrDamaged, message.CourseDamaged)
	message.Register(ErrTooLarge, message.CourseTooLarge)
	message.Register(ErrTooSlow, message.CourseTooSlow)
}

// Limits bound what Open reads; zero fields take DefaultLimits'.
type Limits struct {
	MaxDocuments         int   // PDFs in one course
	MaxPDFBytes          int64 // one PDF
	MaxDataBytes         int64 // one document's processed data, or its vectors
	MaxConversationBytes int64 // the conversation's encoding
	MaxReviewBytes       int64 // the flashcards' reviews' encoding
	MaxNoteBytes         int64 // the student's notes' encoding
	MaxTotal             int64 // the whole file
	// CheckTime bounds the checks of Open (which read every byte once),
	// and each later read.
	CheckTime time.Duration
}

// DefaultLimits are generous for a term's course pack and small enough
// that a hostile file cannot exhaust memory: Open holds one PDF with its
// data at a time. The conversation's bound is twice what a session
// restores of one (rag.MaxRestoredBytes); the reviews' holds the largest
// deck a session keeps (package review: 20,000 cards and 200,000 log
// rows encode to about 76 MiB, TestFullDeckFitsACourse), the notes' what
// package notes decodes (notes.MaxEncodedBytes). CheckTime allows reading 8 GB
// from a slow disk (30 MB/s).
var DefaultLimits = Limits{MaxDocuments: 500, MaxPDFBytes: 200 << 20, MaxDataBytes: 512 << 20,
	MaxConversationBytes: 64 << 20, MaxReviewBytes: 128 << 20, MaxNoteBytes: 64 << 20, MaxTotal: 8 << 30, CheckTime: 5 * time.Minute}

// Document is one PDF of a course.
type Document struct {
	File string // its original name
	PDF  []byte // its bytes; SHA256 is their hash
	// SHA256 is the PDF's hash, hex (the session's document id).
	SHA256 string
	// Setup fingerprints the pipeline that produced Processed; a reader
	// with another setup processes the PDF again.
	Setup string
	// Processed is the consumer's encoding of the processed document
	// (JSON), nil when absent.
	Processed []byte
	// Models fingerprints the models that computed Vectors; Vectors is
	// the consumer's encoding of them, nil when absent.
	Models  string
	Vectors []byte
}

// Course is what a course file holds.
type Course struct {
	Documents []Document
	// Conversation is the consumer's encoding of the conversation, nil
	// when the student did not keep it.
	Conversation []byte
	// Reviews is the consumer's encoding of the flashcards under review
	// and their review log, nil when there are none.
	Reviews []byte
	// Notes is the consumer's encoding of the student's own highlights
	// and notes, nil when there are none.
	Notes []byte
}
