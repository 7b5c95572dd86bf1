//go:build !unix

package bench

// CPUTime is not measured off Unix.
func CPUTime() (user, sys float64, childPeak int64, ok bool) { return 0, 0, 0, false }

// ChildCPU is not measured off Unix.
func ChildCPU() (float64, bool) { return 0, false }
