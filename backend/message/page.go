package message

import "strings"

// Page codes: why one page of a document that was added has no text. The
// page is stored with its code and parameters (corpus.Page.Problem); the
// explorer translates them, the command line prints their English.
// Every page code has the parameter "page" (its 1-based number).
const (
	PageTimeout    = "page.timeout"     // limit: the page's time budget ("30s")
	PageCrashed    = "page.crashed"     // detail: how the reader ended ("exit status 2")
	PageTooLarge   = "page.too_large"   // detail: the reader's English account (its size)
	PageUnread     = "page.unreadable"  // detail: the reader's English account
	PageTruncated  = "page.truncated"   // the file ends before the page's content
	PageNoOCR      = "page.no_ocr"      // a scanned page, and OCR is not available
	PageOCRTimeout = "page.ocr_timeout" // limit: the OCR time budget
	PageOCRCrashed = "page.ocr_crashed" // detail: how the reader ended
	PageOCRNoData  = "page.ocr_language_data"
	PageOCRFailed  = "page.ocr_failed"  // detail: the OCR error's text
	PageTextCut    = "page.text_cut"    // limit: the characters kept of the page
	PageOverBudget = "page.over_budget" // limit: the document's text budget, in characters
	PageDocBudget  = "page.doc_budget"  // limit: the document's wall or CPU time ("30m0s")
	PageOCRCap     = "page.ocr_cap"     // limit: the pages of a document sent to OCR
)

// orDetail is the parameter "detail" when there is one, else fallback.
func orDetail(p Params, fallback string) string {
	if d := str(p, "detail"); d != "" {
		return d
	}
	return fallback
}

func init() {
	pages := map[string]func(Params) string{
		PageTimeout: func(p Params) string {
			return "page " + str(p, "page") + " took too long and was skipped (more than " + str(p, "limit") + ")"
		},
		PageCrashed: func(p Params) string {
			return "page " + str(p, "page") + " crashed the PDF reader and was skipped (" + str(p, "detail") + ")"
		},
		PageTooLarge: func(p Params) string {
			return orDetail(p, "page "+str(p, "page")+" is too large and was skipped")
		},
		PageUnread: func(p Params) string {
			return orDetail(p, "page "+str(p, "page")+" cannot be read and was skipped")
		},
		PageTruncated: fixed("page content missing: the file is truncated"),
		PageNoOCR:     fixed("scanned page: OCR is not available"),
		PageOCRTimeout: func(p Params) string {
			return "OCR of page " + str(p, "page") + " took too long and was skipped (more than " + str(p, "limit") + ")"
		},
		PageOCRCrashed: func(p Params) string {
			return "OCR of page " + str(p, "page") + " crashed the reader and was skipped (" + str(p, "detail") + ")"
		},
		PageOCRNoData: func(p Params) string {
			return "OCR failed: " + orDetail(p, "the OCR language data is missing")
		},
		PageOCRFailed: func(p Params) string { return "OCR failed: " + str(p, "detail") },
		PageTextCut: func(p Params) string {
			return "page " + str(p, "page") + " holds more text than a page may (" + str(p, "limit") + " characters): the rest was dropped"
		},
		PageDocBudget: func(p Params) string {
			return "page " + str(p, "page") + " was not read: the document ran out of its time (" + str(p, "limit") + ")"
		},
		PageOCRCap: func(p Params) string {
			return "scanned page " + str(p, "page") + " was not OCRed: Vika OCRs at most " + str(p, "limit") + " pages of one document"
		},
		PageOverBudget: func(p Params) string {
			return "page " + str(p, "page") + " was not read: the document reached its text budget (" + str(p, "limit") + " characters)"
		},
	}
	for code, f := range pages {
		english[code] = f
	}
}

// IsPage reports whether code is a page code.
func IsPage(code string) bool { return strings.HasPrefix(code, "page.") }
