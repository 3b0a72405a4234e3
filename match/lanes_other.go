//go:build !amd64 || purego

package match

// useAVX512Lanes is false off amd64 and with the purego tag:
// laneAdvanceGo runs. A variable, as on amd64, so that the tests that
// switch it build.
var useAVX512Lanes = false

// laneKernel returns laneAdvanceGo: there is no vector kernel here.
func laneKernel[W laneWord]() func(tab, st []W, groups int, t []byte) (int, uint64) {
	return laneAdvanceGo[W]
}
