package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"vika/backend/course"
	"vika/backend/engine"
	"vika/backend/rag"
)

// courseFilter is the dialogs' filter of course files.
var courseFilter = []runtime.FileFilter{{DisplayName: "Vika course (*" + course.Ext + ")", Pattern: "*" + course.Ext}}

// SaveCourse asks where to save the session as a course file (with the
// conversation when withConversation) and saves it; "" when the student
// cancels.
func (a *App) SaveCourse(withConversation bool) (string, error) {
	path, err := runtime.SaveFileDialog(a.ctx, runtime.SaveDialogOptions{
		Title: "Save course", DefaultFilename: "course" + course.Ext, Filters: courseFilter,
	})
	if err != nil || path == "" {
		return "", err
	}
	if !strings.EqualFold(filepath.Ext(path), course.Ext) {
		path += course.Ext
	}
	var conv []byte
	if withConversation {
		if conv, err = json.Marshal(a.rag.Conversation()); err != nil {
			return "", err
		}
	}
	_, err = a.eng.SaveCourse(a.ctx, path, conv)
	return path, err
}

// PickCourse asks for a course file to open; "" when the student cancels.
func (a *App) PickCourse() (string, error) {
	return runtime.OpenFileDialog(a.ctx, runtime.OpenDialogOptions{Title: "Open course", Filters: courseFilter})
}

// OpenCourse adds the PDFs of the course file at path (and its
// conversation, when it holds one), reporting each as ingest progress.
func (a *App) OpenCourse(path string) (engine.CourseResult, error) {
	res, err := a.eng.OpenCourse(a.ctx, path, a.emitProgress)
	if err != nil {
		return res, err
	}
	for i, f := range res.Failed { // a duplicate, say: shown on its own row
		f.JobID = "course-" + filepath.Base(path) + "-" + strconv.Itoa(i)
		a.emitProgress(f)
	}
	if res.Conversation != nil {
		var turns []rag.Answer
		if json.Unmarshal(res.Conversation, &turns) == nil {
			a.rag.RestoreConversation(turns)
		}
	}
	return res, nil
}

// isCourse reports whether path names a course file.
func isCourse(path string) bool { return strings.EqualFold(filepath.Ext(path), course.Ext) }
