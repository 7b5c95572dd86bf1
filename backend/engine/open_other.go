//go:build !unix

package engine

import "os"

// openNoBlock is os.Open where O_NONBLOCK does not exist.
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
