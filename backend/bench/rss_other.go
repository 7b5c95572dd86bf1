//go:build !linux && !darwin

package bench

import "os"

// peakRSS is not available on this system.
func peakRSS(*os.ProcessState) (int64, bool) { return 0, false }

// SelfPeakRSS is not available on this system.
func SelfPeakRSS() (int64, bool) { return 0, false }
