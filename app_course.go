package main

import (
	"path/filepath"
	"strings"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"vika/backend/course"
	"vika/backend/engine"
	"vika/backend/message"
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
	if !isCourse(path) {
		path += course.Ext
	}
	_, err = a.s.SaveCourse(a.ctx, path, withConversation)
	return path, err
}

// PickCourse asks for a course file to open; "" when the student cancels.
func (a *App) PickCourse() (string, error) {
	return runtime.OpenFileDialog(a.ctx, runtime.OpenDialogOptions{Title: "Open course", Filters: courseFilter})
}

// OpenCourse adds the PDFs of the course file at path (and its
// conversation, when it holds one).
func (a *App) OpenCourse(path string) (engine.CourseResult, error) {
	return a.s.OpenCourse(a.ctx, path)
}

// courseRefused is the failed row of a course file that was refused.
func courseRefused(path string, err error) engine.Progress {
	m := message.Of(err)
	name := filepath.Base(path)
	return engine.Progress{JobID: "course-" + name, File: name, Stage: engine.StageFailed, Error: err.Error(), Problem: &m}
}

// isCourse reports whether path names a course file.
func isCourse(path string) bool { return strings.EqualFold(filepath.Ext(path), course.Ext) }
