package match

// SetLanes sets the least work (lanesMin) for which Count takes the lane
// path (0: never) and returns a function that restores it: the benchmarks time
// the per-pattern path beside the lanes with it.
func SetLanes(min int) (restore func()) {
	old := lanesMin
	if min == 0 {
		min = 1 << 62
	}
	lanesMin = min
	return func() { lanesMin = old }
}
