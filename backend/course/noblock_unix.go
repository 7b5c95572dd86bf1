//go:build unix

package course

import "syscall"

// noBlock makes opening a FIFO or a device return at once.
const noBlock = syscall.O_NONBLOCK
