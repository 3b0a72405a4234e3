package lev

import "github.com/levlab/levlab/cudaext"

// WithFastModel makes CUDAFast run cudaext.FastModel, the CPU model of its
// schedule, with the given geometry instead of the GPU: the conformance
// suite and the fuzzer prove the schedule on machines without one.
func WithFastModel(s cudaext.FastSchedule) Option {
	return func(c *config) { c.fastModel = &s }
}

// RaceEnabled is raceEnabled for the external tests: under the race
// detector they draw fewer and smaller inputs.
const RaceEnabled = raceEnabled

// MyersKernels names the Myers kernels this CPU runs, portable first:
// "go", then "avx2" and "avx512" where the CPU has them (only "go" under
// the purego tag).
func MyersKernels() []string {
	var names []string
	for _, k := range availableKernels() {
		names = append(names, k.String())
	}
	return names
}

// WithMyersKernel makes Myers, MyersParallel and Align run the named
// kernel (one of MyersKernels) rather than the fastest: the conformance
// suite and the fuzzer run each in turn.
func WithMyersKernel(name string) Option {
	return func(c *config) {
		for _, k := range availableKernels() {
			if k.String() == name {
				c.kernel = k
				return
			}
		}
		c.Fail("Myers kernel %q: this CPU runs %v", name, MyersKernels())
	}
}
