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
