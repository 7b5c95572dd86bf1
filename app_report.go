package main

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// The kinds of page failure the frontend reports (frontend/src/lib/errorreport.ts).
var frontendErrorKinds = map[string]bool{
	"error": true, "unhandledrejection": true, "securitypolicyviolation": true, "console.error": true,
}

const (
	maxFrontendReports = 200 // per run: a loop of errors cannot fill the disk
	maxFrontendMessage = 500 // bytes of each message kept
)

var frontendReports atomic.Int32

// ReportFrontendError writes a failure inside the page (an uncaught
// exception, an unhandled promise rejection, a Content-Security-Policy
// violation, a console.error) to stderr as one line,
// "vika: frontend <kind>: <message>": in the built app it is the only trace
// such a failure leaves. At most maxFrontendReports lines per run.
func (a *App) ReportFrontendError(kind, message string) error {
	n := frontendReports.Add(1)
	switch {
	case n > maxFrontendReports+1:
		return nil
	case n == maxFrontendReports+1:
		fmt.Fprintf(os.Stderr, "vika: frontend: more than %d errors, the others are not written\n", maxFrontendReports)
		return nil
	}
	if !frontendErrorKinds[kind] {
		kind = "other"
	}
	fmt.Fprintf(os.Stderr, "vika: frontend %s: %s\n", kind, oneLine(message, maxFrontendMessage))
	return nil
}

// oneLine joins the lines of s and cuts it to at most max bytes (on a rune
// boundary).
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
