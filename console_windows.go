//go:build windows

package main

import (
	"os"
	"syscall"
)

// attachConsole gives a subcommand run from a console (cmd.exe, PowerShell)
// that console for its output. vika.exe is built as a GUI program
// (-H windowsgui) so that opening it from the Start menu or a PDF shows no
// console window; Windows then starts it with no standard handles unless
// they are redirected. Handles that are redirected (to a file or a pipe, as
// scripts do) are kept; the others are reopened on the console of the parent
// process, when there is one.
//
// cmd.exe does not wait for a GUI program: its prompt comes back before the
// output. `start /wait vika search ...` in cmd.exe, or piping the output
// (`vika search ... | more`) waits for it; PowerShell waits when the output
// is piped (`vika version | Out-Host`).
func attachConsole() {
	std := []struct {
		id   int
		file **os.File
	}{
		{syscall.STD_OUTPUT_HANDLE, &os.Stdout},
		{syscall.STD_ERROR_HANDLE, &os.Stderr},
	}
	var reopen []**os.File
	for _, s := range std {
		if !usable(s.id) {
			reopen = append(reopen, s.file)
		}
	}
	if len(reopen) == 0 {
		return
	}
	attach := syscall.NewLazyDLL("kernel32.dll").NewProc("AttachConsole")
	const attachParentProcess = ^uintptr(0) // ATTACH_PARENT_PROCESS, (DWORD)-1
	if ok, _, _ := attach.Call(attachParentProcess); ok == 0 {
		return // started from Explorer: no console to write to
	}
	for _, file := range reopen {
		if f, err := os.OpenFile("CONOUT$", os.O_RDWR, 0); err == nil {
			*file = f
		}
	}
}

// usable reports whether the standard handle id refers to a file, pipe or
// console (a GUI program started from a console without redirection has none).
func usable(id int) bool {
	h, err := syscall.GetStdHandle(id)
	if err != nil || h == syscall.InvalidHandle || h == 0 {
		return false
	}
	t, err := syscall.GetFileType(h)
	return err == nil && t != syscall.FILE_TYPE_UNKNOWN
}
