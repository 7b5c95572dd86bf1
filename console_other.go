//go:build !windows

package main

// attachConsole is needed on Windows only (see console_windows.go): elsewhere
// a program started from a terminal always has its standard streams.
func attachConsole() {}
