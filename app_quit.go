package main

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"vika/backend/session"
)

// The quit question (frontend/src/lib/api/quit.ts): closing the window
// while the session holds unsaved work (session.Unsaved) keeps it open
// and asks the page, which shows Save course… / Don't save / Cancel.
// The page asks rather than a native dialog: Wails v2's message dialog on
// Linux offers Yes and No only, whatever buttons it is given.

// quitGate decides whether the window may close.
type quitGate struct {
	// listening is set once the page listens for the question: a page
	// that never loaded cannot ask, and the window closes.
	listening atomic.Bool
	// allowed is set when the student answered (Don't save, or saved):
	// the next close goes through.
	allowed atomic.Bool
	mu      sync.Mutex
	// askedAt is when the question went to the page and was not yet
	// shown (QuitShown); zero once shown.
	askedAt time.Time
}

// quitShowWait is how long the page has to show the question: a close
// asked again after it, the question still not shown, closes the window
// (a page that froze must not keep it open for ever).
const quitShowWait = 5 * time.Second

// decide reports whether to keep the window open at now, calling ask when
// it does; unsaved is asked only when it matters.
func (g *quitGate) decide(now time.Time, unsaved func() bool, ask func()) (prevent bool) {
	if g.allowed.Load() || !g.listening.Load() || !unsaved() {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.askedAt.IsZero() && now.Sub(g.askedAt) > quitShowWait {
		return false // the page never showed the last question
	}
	if g.askedAt.IsZero() {
		g.askedAt = now
	}
	ask()
	return true
}

// shown records that the page shows the question.
func (g *quitGate) shown() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.askedAt = time.Time{}
}

// beforeClose is the window's OnBeforeClose (the close button, the
// window manager, runtime.Quit): true keeps the window open.
func (a *App) beforeClose(context.Context) bool {
	return a.quit.decide(time.Now(), a.s.Unsaved, func() { a.emit(session.EventQuitRequested, nil) })
}

// ListenQuit tells that the page listens for the quit question: from now
// on, closing the window with unsaved work asks it.
func (a *App) ListenQuit() { a.quit.listening.Store(true) }

// QuitShown tells that the page shows the quit question.
func (a *App) QuitShown() { a.quit.shown() }

// Quit closes the window without asking again: the student chose Don't
// save, or saved. Nothing is written.
func (a *App) Quit() {
	a.quit.allowed.Store(true)
	runtime.Quit(a.ctx)
}
