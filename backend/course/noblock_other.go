//go:build !unix

package course

// noBlock: Windows has no FIFO that an open of a path would wait on.
const noBlock = 0
