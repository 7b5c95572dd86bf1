//go:build !linux && !windows

package lowprio

import (
	"errors"
	"time"
)

// Background is 0: no priority is set on this system.
const Background = 0

var errUnsupported = errors.New("lowprio: thread priorities are not set on this system")

func lower() error { return errUnsupported }

// Current fails: thread priorities are not read on this system.
func Current() (int, error) { return 0, errUnsupported }

const threadCPUMeasured = false

// threadCPU is not measured on this system.
func threadCPU() time.Duration { return 0 }
