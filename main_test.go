package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOpensFiles(t *testing.T) {
	dir := t.TempDir()
	noExt := filepath.Join(dir, "lecture")
	if err := os.WriteFile(noExt, []byte("%PDF-1.4"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"notes.pdf"}, true},                 // opened, even if missing: the window says why
		{[]string{"a.PDF", noExt}, true},              // a PDF saved without its extension
		{[]string{"course.vika"}, true},               // a double-clicked course file (Exec=vika %F), even missing
		{[]string{"Term.VIKA", "notes.pdf"}, true},    // a course and a PDF
		{[]string{"version"}, false},                  // a subcommand
		{[]string{"search", "x.pdf"}, false},          // a subcommand with a PDF argument
		{[]string{"--help"}, false},                   //
		{[]string{"nonsense"}, false},                 // neither: the CLI says "unknown command"
		{[]string{"notes.pdf", "missing.txt"}, false}, //
		{[]string{dir}, false},                        // a folder
	} {
		if got := opensFiles(tc.args); got != tc.want {
			t.Errorf("opensFiles(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
