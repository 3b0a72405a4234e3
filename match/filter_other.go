//go:build !amd64 || purego

package match

// useAVX512Filter is false off amd64 and with the purego tag: nextKey
// runs. A variable, as on amd64, so that the tests that switch it build.
var useAVX512Filter = false

func nextKeyAVX512(t []byte, keys *[maxExactKeys]uint64, nkeys int, mask uint64, q int) (next int, found bool) {
	panic("match: nextKeyAVX512 called without AVX-512")
}
