//go:build !linux

package ocr

import "time"

// threadCPU is unknown here: Result.CPU stays 0.
func threadCPU() time.Duration { return 0 }
