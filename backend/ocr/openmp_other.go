//go:build !(cgo && (linux || darwin || freebsd))

package ocr

// singleThreadOpenMP is a no-op where the OpenMP runtime cannot be looked
// up; OMP_THREAD_LIMIT=1 in the environment of the process still applies.
func singleThreadOpenMP() bool { return false }

func openMPMaxActiveLevels() int { return -1 }
