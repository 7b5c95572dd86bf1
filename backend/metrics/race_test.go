//go:build race

package metrics_test

// raceEnabled: the race detector slows the code 5-20 times, so timing
// bounds are not checked under it.
const raceEnabled = true
