package main

import (
	"path/filepath"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"vika/backend/course"
	"vika/backend/session"
)

// courseFilter is the dialogs' filter of course files.
var courseFilter = []runtime.FileFilter{{DisplayName: "Vika course (*" + course.Ext + ")", Pattern: "*" + course.Ext}}

// SaveCourse asks where to save the session as a course file (with the
// conversation when withConversation) and saves it; "" when the student
// cancels. The dialog starts at the course file last saved or opened.
func (a *App) SaveCourse(withConversation bool) (string, error) {
	o := runtime.SaveDialogOptions{Title: "Save course", DefaultFilename: "course" + course.Ext, Filters: courseFilter}
	if last := a.s.CoursePath(); last != "" {
		o.DefaultDirectory, o.DefaultFilename = filepath.Dir(last), filepath.Base(last)
	}
	path, err := runtime.SaveFileDialog(a.ctx, o)
	if err != nil || path == "" {
		return "", err
	}
	if !course.IsPath(path) {
		path += course.Ext
	}
	_, err = a.s.SaveCourse(a.ctx, path, withConversation)
	return path, err
}

// PickCourse asks for a course file to open; "" when the student cancels.
func (a *App) PickCourse() (string, error) {
	return runtime.OpenFileDialog(a.ctx, runtime.OpenDialogOptions{Title: "Open course", Filters: courseFilter})
}

// OpenCourse starts opening the course file at path in the background
// (its PDFs, and its conversation when it holds one) and returns the job's
// id: its progress, its end and its problem come as ingest:progress
// events, and Cancel stops it.
func (a *App) OpenCourse(path string) string {
	return a.s.StartCourse(path)
}

// RecentCourses lists the course files saved or opened before, most
// recent first, each said missing when no file is there any more.
func (a *App) RecentCourses() []session.RecentCourse { return a.s.RecentCourses() }
