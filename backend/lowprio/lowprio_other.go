//go:build !linux && !windows

package lowprio

import "errors"

const Background = 0

var errUnsupported = errors.New("lowprio: thread priorities are not set on this system")

func lower() error { return errUnsupported }

func Current() (int, error) { return 0, errUnsupported }
