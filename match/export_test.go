package match

// SetLanes sets the least work (lanesMin) for which Count takes the lane
// path (0: never; 1: however few patterns, and with the portable kernel
// too) and returns a function that restores it: the benchmarks time the
// per-pattern path beside the lanes with it, the tests run every case in
// lanes.
func SetLanes(min int) (restore func()) {
	old, oldGo := lanesMin, lanesGo
	lanesGo = min == 1
	if min == 0 {
		min = 1 << 62
	}
	lanesMin = min
	return func() { lanesMin, lanesGo = old, oldGo }
}

// NoAVX512Lanes makes Count run the AVX2 lane kernels where the CPU has
// AVX-512 too, and returns a function that restores it; it reports false,
// changing nothing, where there is no AVX2.
func NoAVX512Lanes() (restore func(), ok bool) {
	if !useAVX2Lanes {
		return func() {}, false
	}
	old := useAVX512Lanes
	useAVX512Lanes = false
	return func() { useAVX512Lanes = old }, true
}
