//go:build !amd64 || purego

package match

// useAVX512Lanes and useAVX2Lanes are false off amd64 and with the purego
// tag: laneAdvanceGo runs. Variables, as on amd64, so that the tests that
// switch them build.
var useAVX512Lanes, useAVX2Lanes = false, false

// laneVectors returns no kernel: there is no vector kernel here.
func laneVectors[W laneWord]() []laneKernelOf[W] { return nil }
