package main

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"vika/backend/session"
)

// App holds the methods bound to the frontend, one app_*.go file per page
// API module (frontend/src/lib/api). Each one converts, calls the session
// and returns (T, error); the session (backend/session) holds the logic
// and the rules between stages.
type App struct {
	ctx          context.Context
	s            *session.Session
	initialFiles []string // from the command line, added once the page is ready
	quit         quitGate // whether closing the window asks first (app_quit.go)
}

// NewApp opens the window's session; its events go to the page.
func NewApp(ctx context.Context) (*App, error) {
	a := &App{} // ctx: the window's, from startup
	s, err := session.Open(ctx, session.Options{Emit: a.emit})
	if err != nil {
		return nil, err
	}
	a.s = s
	return a, nil
}

// emit sends a session event to the page (none before the window starts).
func (a *App) emit(name string, payload any) {
	if a.ctx != nil {
		runtime.EventsEmit(a.ctx, name, payload)
	}
}

func (a *App) startup(ctx context.Context) { a.ctx = ctx }

// domReady opens what the command line named: PDFs, course files, each as
// a background job (on Linux this runs on Wails' only message goroutine:
// nothing here may wait for a file).
func (a *App) domReady(context.Context) {
	a.s.OpenFiles(a.initialFiles)
	a.initialFiles = nil
}

func (a *App) shutdown(context.Context) { _ = a.s.Close() }
