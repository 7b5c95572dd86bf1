package message

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// General codes.
const (
	Other         = "error.other"          // detail: the Go error's text (no code of its own)
	Cancelled     = "error.cancelled"      // the user stopped it
	TimedOut      = "error.timeout"        // it took too long and was stopped
	SessionClosed = "error.session_closed" // the session is closed (Vika is quitting)
	Internal      = "error.internal"       // a bug (a panic) stopped this task, its stack logged; the rest goes on
	Invalid       = "error.invalid"        // a setting or an option out of its bounds (the window checks them first: a bug or an edited file)
	BadID         = "error.bad_id"         // a task id malformed or already in use (the window picks them: a bug)
)

// Ingest codes: why a PDF could not be added.
const (
	Empty        = "ingest.empty"
	NotPDF       = "ingest.not_pdf" // looks: what the file seems to be ("png", "text", ...; "" unknown)
	Folder       = "ingest.folder"
	NotAFile     = "ingest.not_a_file" // a pipe, a device or a socket
	Encrypted    = "ingest.encrypted"
	Corrupt      = "ingest.corrupt"
	NoPages      = "ingest.no_pages"
	TooLarge     = "ingest.too_large"      // size, limit: "12 MB", "10 MB"
	TooManyPages = "ingest.too_many_pages" // pages, limit
	Duplicate    = "ingest.duplicate"      // label: the document already added
	StillReading = "ingest.still_reading"  // label: a document whose OCR still runs (describe, summarise, re-chunk wait)
	ReaderGaveUp = "ingest.reader_gave_up" // the PDF reader crashed or ran over budget on too many pages
	NoOCRData    = "ingest.ocr_language_data"
	OCRFailed    = "ingest.ocr_failed"
	// A warning, not an error: the file ends without %%EOF; the document
	// is added and the pages whose content is missing are marked.
	Truncated = "ingest.truncated"
	// A warning too: the document brought more text than it may
	// (ingest.MaxDocChars); it is added with the pages read before that.
	TextBudget = "ingest.text_budget" // pages: the pages read; limit: the budget in characters
	// Warnings too: the document ran out of its wall or CPU time (pages:
	// how many were not read or not OCRed; limit: "30m0s"); more scanned
	// pages than OCR takes from one document (pages: those not OCRed;
	// limit); and regions, figure crops or passages past their budgets
	// (regions, crops, passages: how many were dropped).
	DocBudget    = "ingest.doc_budget"
	DocTimeOut   = "ingest.doc_time_out" // an error: limit; no page was read within the document's time
	OCRCap       = "ingest.ocr_cap"
	RegionBudget = "ingest.region_budget"
	// OCRPoor: pages (the numbers of the pages read poorly, "3, 7, 12";
	// "..." after the tenth), confidence (the lowest mean word
	// confidence, percent).
	OCRPoor = "ingest.ocr_poor"
)

// Answer codes: why an answer failed.
const (
	EmptyQuestion = "answer.empty_question"
	NoModel       = "answer.no_model"        // no model is available
	ModelNotFound = "answer.model_not_found" // detail: the Go error's text
	Exhausted     = "answer.exhausted"       // attempts: []Attempt, every model tried failed
)

// Reasons a model failed (llm.KindOf), the "reason" parameter of notices
// and of Exhausted's attempts: "reason." + kind.
var Reasons = []string{
	"rate_limited", "quota", "unavailable", "auth", "timeout", "stream", "bad_response", "unformatted",
	"model_not_found", "bad_request", "blocked", "no_key", "no_model", "canceled", "error",
	"keyring", // the system keyring could not be read for the provider's key
}

// Attempt is one model an answer tried, in Exhausted's "attempts".
type Attempt struct {
	Model  string `json:"model"`
	Reason string `json:"reason"` // llm.KindOf its error
}

// str is the parameter key as text: a whole number read back from JSON
// (float64) prints as one ("4", not "4e+00").
func str(p Params, key string) string {
	switch v := p[key].(type) {
	case nil:
		return ""
	case []string: // a list of names (a notice's alternatives)
		return strings.Join(v, ", ")
	case []any: // the same, read back from JSON
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = fmt.Sprint(x)
		}
		return strings.Join(parts, ", ")
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1e15 {
			return strconv.FormatInt(int64(v), 10)
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	default:
		return fmt.Sprint(v)
	}
}

// reasons are the English phrases of the failure kinds, code "reason." + kind.
var reasons = map[string]string{
	"rate_limited":    "rate limited",
	"quota":           "quota used up",
	"unavailable":     "unavailable",
	"auth":            "API key rejected",
	"timeout":         "no answer in time",
	"stream":          "broke off",
	"bad_response":    "malformed answer",
	"unformatted":     "reply not in the format asked for",
	"model_not_found": "model does not exist at the provider",
	"bad_request":     "request rejected",
	"blocked":         "blocked by the content filter",
	"no_key":          "no API key",
	"keyring":         "the system keyring could not be read",
	"no_model":        "no model available",
	"canceled":        "stopped",
	"error":           "failed",
}

// looks are the English phrases of what a file that is not a PDF seems
// to be (pdf's sniffing), code "looks." + id.
var looks = map[string]string{
	"png": "a PNG image", "jpeg": "a JPEG image", "gif": "a GIF image", "tiff": "a TIFF image",
	"zip":    "a ZIP archive (Word, PowerPoint, OpenDocument or EPUB file?)",
	"office": "an old Microsoft Office file (.doc, .ppt or .xls)", "rtf": "an RTF document",
	"postscript": "a PostScript file", "gzip": "a gzip-compressed file", "7z": "a 7-Zip archive",
	"rar": "a RAR archive", "elf": "a program (ELF executable)", "exe": "a Windows program",
	"djvu": "a DjVu document", "late_header": "a damaged PDF (its header appears later in the file)",
	"html": "a web page: was the download interrupted or blocked?", "xml": "an XML or SVG file",
	"text": "a plain text file",
}

func init() {
	for _, k := range Reasons {
		english["reason."+k] = fixed(reasons[k])
	}
	for id, what := range looks {
		english["looks."+id] = fixed(what)
	}
}

// reason is the English phrase of a failure kind.
func reason(kind string) string {
	if r, ok := reasons[kind]; ok {
		return r
	}
	return reasons["error"]
}

func fixed(s string) func(Params) string { return func(Params) string { return s } }

// english has one function per code.
var english = map[string]func(Params) string{
	Other:         func(p Params) string { return "Something went wrong: " + str(p, "detail") },
	Cancelled:     fixed("Stopped."),
	TimedOut:      fixed("It took too long and was stopped."),
	SessionClosed: fixed("The session is closed: restart Vika."),
	Internal:      fixed("Vika hit an internal error (a bug) and stopped this task; the rest goes on. The details are in the log."),
	Invalid:       fixed("These settings are not valid: a value is outside its bounds."),
	BadID:         fixed("Vika could not start this task (its id is malformed or already in use): try again."),

	Empty: fixed("This is an empty file (0 bytes): there is nothing to read."),
	NotPDF: func(p Params) string {
		if what, ok := looks[str(p, "looks")]; ok {
			return "This file is not a PDF (it looks like " + what + ")."
		}
		return "This file is not a PDF."
	},
	Folder:    fixed("This is a folder, not a PDF."),
	NotAFile:  fixed("This is not a regular file (it is a pipe, a device or a socket), so it is not read."),
	Encrypted: fixed("The PDF is password-protected: remove the protection (for example print it to a new PDF) and add it again."),
	Corrupt:   fixed("The PDF is damaged and cannot be read."),
	NoPages:   fixed("The PDF has no pages."),
	TooLarge: func(p Params) string {
		return "The file is too large: " + str(p, "size") + ", the limit is " + str(p, "limit") + "."
	},
	TooManyPages: func(p Params) string {
		return "The PDF has too many pages: " + str(p, "pages") + ", the limit is " + str(p, "limit") + "."
	},
	Duplicate: func(p Params) string { return "This PDF is already in the library as " + str(p, "label") + "." },
	StillReading: func(p Params) string {
		return str(p, "label") + " is still being read (OCR of its scanned pages): try again once every page is read."
	},
	ReaderGaveUp: fixed("The PDF reader gave up on this document: too many pages crashed it or took too long."),
	NoOCRData:    fixed("The OCR language data is missing: run `make assets`."),
	OCRFailed:    fixed("Text recognition (OCR) failed on this document."),
	TextBudget: func(p Params) string {
		return "the document holds more text than Vika takes from one document (" + str(p, "limit") + " characters): only its first " + str(p, "pages") + " pages were read"
	},
	DocBudget: func(p Params) string {
		return "the document ran out of the time Vika gives one document (" + str(p, "limit") + "): " + str(p, "pages") + " pages were not read or not OCRed"
	},
	DocTimeOut: func(p Params) string {
		return "The PDF ran out of the time Vika gives one document (" + str(p, "limit") + ") before any of its pages could be read."
	},
	OCRCap: func(p Params) string {
		return "the document has more scanned pages than Vika OCRs in one document (" + str(p, "limit") + "): " + str(p, "pages") + " were not OCRed"
	},
	OCRPoor: func(p Params) string {
		return "OCR read page(s) " + str(p, "pages") + " poorly (confidence as low as " + str(p, "confidence") +
			"%): a blurred, dark or slanted photo? Answers from them may miss words"
	},
	RegionBudget: func(p Params) string {
		return "the document holds more tables, figures or passages than Vika keeps of one document: " + str(p, "regions") + " regions, " + str(p, "crops") + " figure pictures and " + str(p, "passages") + " passages were left out"
	},
	Truncated: fixed("the file ends without %%EOF: it looks truncated (an incomplete download?), so some pages may be missing or incomplete"),

	EmptyQuestion: fixed("The question is empty."),
	NoModel:       fixed("No model is available: add an API key (Gemini, Mistral, Groq or OpenRouter) in Settings, or install a local model."),
	ModelNotFound: func(p Params) string { return "The model picked is not available: " + str(p, "detail") },
	Exhausted: func(p Params) string {
		as, _ := p["attempts"].([]Attempt)
		parts := make([]string, 0, len(as))
		for _, a := range as {
			parts = append(parts, a.Model+" "+attempt(a.Reason))
		}
		return "No model could answer: " + strings.Join(parts, "; ") +
			". Try again in a minute, pick another model, or add another provider's API key in Settings."
	},
}

// Model download codes: why a model of the registry was not installed.
const (
	ModelChecksum = "models.checksum" // model, file: the bytes differ from the pinned sha256
	ModelSize     = "models.size"     // model, file, size, want: the size differs from the pinned one
	ModelOffline  = "models.offline"  // host: cannot be reached
	ModelBoxOnly  = "models.box_only" // model: comes with Vika, not downloadable
)

func init() {
	english[ModelChecksum] = func(p Params) string {
		return "The download of " + str(p, "model") + " was refused: " + str(p, "file") + " is not the pinned file (its sha256 differs). Nothing was installed; search keeps working as before."
	}
	english[ModelSize] = func(p Params) string {
		return "The download of " + str(p, "model") + " was refused: " + str(p, "file") + " is " + str(p, "size") + " bytes, the pinned file " + str(p, "want") + ". Nothing was installed; search keeps working as before."
	}
	english[ModelBoxOnly] = func(p Params) string {
		return str(p, "model") + " comes with Vika and cannot be downloaded: reinstall Vika to restore it."
	}
	english[ModelOffline] = func(p Params) string {
		return "Cannot reach " + str(p, "host") + ": you are offline. Search keeps working with the built-in model."
	}
}
