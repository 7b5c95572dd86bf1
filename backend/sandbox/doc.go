// Package sandbox reads PDFs in a supervised worker process, so that a
// hostile or odd file cannot hang Vika, exhaust its memory or end the
// session. The worker is the running binary re-executed with
// VIKA_SANDBOX_WORKER set (the vika command, or a test binary: this
// package's init turns any binary that imports it into a worker when that
// variable is set). It runs MuPDF (open, page text and layout,
// classification, renders) and Tesseract, and talks to its supervisor
// over its stdin and stdout with gob-encoded requests and responses, one
// at a time.
//
// The supervisor (Opener, implementing ingest.Opener) bounds every page:
//
//   - wall clock: a page's text must come back within Config.PageTimeout
//     and its OCR within Config.OCRTimeout. The worker aborts MuPDF at the
//     deadline itself (fz_cookie); if it does not answer shortly after,
//     the supervisor kills it.
//   - memory and CPU: the worker limits itself at start (RLIMIT_AS and
//     RLIMIT_CPU on Linux, limits_linux.go; the hooks of limits_other.go
//     are where Windows Job Objects would go) and sets a soft Go memory
//     limit (debug.SetMemoryLimit). An allocation MuPDF cannot make fails
//     that page inside MuPDF; a Go allocation that fails ends the worker.
//
// A worker that crashes, is killed or runs over budget fails that page
// only, with its reason as a message code (message.PageTimeout,
// message.PageCrashed, and their OCR forms; in English "page 4 took too long
// and was skipped (more than 30s)"); the next page gets a
// fresh worker that re-opens the document. After Config.MaxFailures such
// failures the document fails (ingest.ErrReader). Cancelling the context
// of a call kills the worker at once, so cancel and close never wait for
// MuPDF or Tesseract.
//
// OCR runs in up to Config.Workers workers per document, each rendering
// and recognising one image at a time, so OCR memory in flight is bounded
// by the number of workers. Idle workers are kept for the next document
// (up to Config.Workers) and retired when their CPU time nears the limit.
package sandbox
