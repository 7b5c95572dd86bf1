package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"vika/backend/atomicfile"
	"vika/backend/export"
	"vika/backend/rag"
)

// The answers page API (frontend/src/lib/api/answers.ts): asking,
// cancelling, the conversation and its export.

// Ask starts answering question under the id the frontend chose, so that
// it listens to the answer's channel (session.EventAnswerPrefix + id)
// before the first event is sent, and returns that id.
func (a *App) Ask(id, question string, opts rag.Options) (string, error) {
	return a.s.StartAnswer(a.ctx, id, question, opts)
}

// CancelAsk stops an answer; what arrived is kept. It reports whether the
// answer was running.
func (a *App) CancelAsk(id string) (bool, error) { return a.s.CancelAnswer(id), nil }

// Conversation returns the session's finished turns, oldest first.
func (a *App) Conversation() ([]rag.Answer, error) { return a.s.Conversation(), nil }

// ClearConversation forgets the turns.
func (a *App) ClearConversation() error { a.s.ClearConversation(); return nil }

// ExportConversation saves the conversation as "html" or "md" where the
// user picks; it returns the path, "" when the user cancelled.
func (a *App) ExportConversation(format string) (string, error) {
	var b bytes.Buffer
	if err := export.Conversation(&b, format, a.s.Conversation(), time.Now()); err != nil {
		return "", err
	}
	return a.save("Export conversation", "vika-conversation."+format, format, b.Bytes())
}

// save asks where to write data with the native dialog and writes it.
func (a *App) save(title, name, ext string, data []byte) (string, error) {
	path, err := runtime.SaveFileDialog(a.ctx, runtime.SaveDialogOptions{
		Title: title, DefaultFilename: name,
		Filters: []runtime.FileFilter{{DisplayName: "*." + ext, Pattern: "*." + ext}},
	})
	if err != nil || path == "" {
		return "", err
	}
	if filepath.Ext(path) == "" {
		path += "." + ext
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return "", fmt.Errorf("could not write %s: %w", path, err)
	}
	return path, nil
}
