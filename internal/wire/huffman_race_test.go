//go:build race

package wire

// raceEnabled reports a -race build, where append(s, make(...)...) is not
// fused into one allocation, so growth counts differ.
const raceEnabled = true
