package lev_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/lev/levtest"
)

// fuzzMaxLen caps the inputs the fuzzer may grow: the reference is O(mn),
// and long inputs would slow every execution without finding more.
const fuzzMaxLen = 1024

// fuzzOptions derives the options of one run from the selector byte sel:
// bits 0–2 the workers (1–8, parallel algorithms only), bits 3–6 the tile,
// bit 7 WithoutBand.
func fuzzOptions(alg lev.Algorithm, sel byte, lenB int) []lev.Option {
	opts := []lev.Option{lev.WithAlgorithm(alg), lev.WithTile(fuzzTile(sel, lenB))}
	if alg.Parallel() {
		opts = append(opts, lev.WithWorkers(1+int(sel&7)))
	}
	if sel&128 != 0 {
		opts = append(opts, lev.WithoutBand())
	}
	return opts
}

// fuzzTile returns the tile that bits 3–6 of sel pick: a fixed size, or
// len(b)-1, len(b) or len(b)+1.
func fuzzTile(sel byte, lenB int) int {
	switch i := int(sel >> 3 & 15); i {
	case 13, 14, 15:
		return max(1, lenB+i-14)
	default:
		return [...]int{1, 2, 3, 5, 7, 8, 16, 31, 63, 64, 65, 128, 1 << 20}[i]
	}
}

// FuzzDistance checks every CPU algorithm, each Myers kernel this CPU has,
// and the model of cuda-fast's schedule, against levtest's reference, as
// bytes and as text (runes, invalid UTF-8 included), on arbitrary inputs and
// option sets, and that the inputs are left unchanged.
func FuzzDistance(f *testing.F) {
	f.Add([]byte("kitten"), []byte("sitting"), byte(0))
	f.Add([]byte(""), []byte("x"), byte(1))
	f.Add([]byte(""), []byte(""), byte(2))
	f.Add([]byte("abc"), []byte("abc"), byte(3))
	f.Add([]byte(strings.Repeat("A", 63)), []byte(strings.Repeat("A", 64)), byte(0x4f))
	f.Add([]byte(strings.Repeat("ACGT", 16)), []byte(strings.Repeat("ACGT", 16)+"A"), byte(0x6a))
	f.Add([]byte(strings.Repeat("ab", 65)), []byte(strings.Repeat("ba", 64)), byte(0xff))
	f.Add([]byte(levtest.AllBytes), []byte(levtest.AllBytes[1:]+levtest.AllBytes[:1]), byte(0x77))
	f.Add([]byte("héllo wörld"), []byte("hello world"), byte(0x12))
	f.Add([]byte("日本語のテキスト"), []byte("日本のテキスト"), byte(0x9c))
	f.Add([]byte("a\xffb\xe6\x97"), []byte("a\uFFFDb日"), byte(0x25))
	f.Add([]byte("😀😁😂"), []byte("😀😂"), byte(0xe1))
	// Past 256 symbols a side, where the AVX-512 kernel takes the pattern.
	f.Add([]byte(strings.Repeat("GATTACA", 90)), []byte(strings.Repeat("GATACCA", 85)), byte(0x31))

	f.Fuzz(func(t *testing.T, a, b []byte, sel byte) {
		a, b = a[:min(len(a), fuzzMaxLen)], b[:min(len(b), fuzzMaxLen)]
		keepA, keepB := bytes.Clone(a), bytes.Clone(b)
		want := levtest.Reference(a, b)
		wantText := levtest.ReferenceString(string(a), string(b))
		for _, alg := range lev.Algorithms() {
			if alg.GPU() {
				continue
			}
			opts := fuzzOptions(alg, sel, len(b))
			d, err := lev.Distance(a, b, opts...)
			if err != nil {
				t.Errorf("%s: Distance(%q, %q) with selector %#x: %v", alg, a, b, sel, err)
			} else if d != want {
				t.Errorf("%s: Distance(%q, %q) with selector %#x = %d, want %d", alg, a, b, sel, d, want)
			}
			if !bytes.Equal(a, keepA) || !bytes.Equal(b, keepB) {
				t.Fatalf("%s: Distance changed its inputs %q, %q", alg, keepA, keepB)
			}
			d, err = lev.DistanceString(string(a), string(b), opts...)
			if err != nil {
				t.Errorf("%s: DistanceString(%q, %q) with selector %#x: %v", alg, a, b, sel, err)
			} else if d != wantText {
				t.Errorf("%s: DistanceString(%q, %q) with selector %#x = %d, want %d", alg, a, b, sel, d, wantText)
			}
		}
		// Each Myers kernel this CPU has, by name.
		for _, k := range lev.MyersKernels() {
			opts := append(fuzzOptions(lev.MyersParallel, sel, len(b)), lev.WithMyersKernel(k))
			if d, err := lev.Distance(a, b, opts...); err != nil || d != want {
				t.Errorf("myers-parallel, kernel %s: Distance(%q, %q) with selector %#x = %d, %v; want %d", k, a, b, sel, d, err, want)
			}
			if d, err := lev.DistanceString(string(a), string(b), opts...); err != nil || d != wantText {
				t.Errorf("myers-parallel, kernel %s: DistanceString(%q, %q) with selector %#x = %d, %v; want %d", k, a, b, sel, d, err, wantText)
			}
		}
		// cuda-fast's schedule, through its CPU model, in the geometry
		// the selector picks.
		s := fastSchedules[int(sel)%len(fastSchedules)]
		s.Seed = uint64(sel)
		model := []lev.Option{lev.WithAlgorithm(lev.CUDAFast), lev.WithFastModel(s)}
		if d, err := lev.Distance(a, b, model...); err != nil || d != want {
			t.Errorf("cuda-fast model %+v: Distance(%q, %q) = %d, %v; want %d", s, a, b, d, err, want)
		}
		if d, err := lev.DistanceString(string(a), string(b), model...); err != nil || d != wantText {
			t.Errorf("cuda-fast model %+v: DistanceString(%q, %q) = %d, %v; want %d", s, a, b, d, err, wantText)
		}
		// Its many-pairs job, on the pair both ways round and each string
		// against itself.
		var got []lev.Pair
		err := lev.Cross([][]byte{a, b}, [][]byte{b, a}, func(p lev.Pair) error { got = append(got, p); return nil }, model...)
		wantPairs := []lev.Pair{{I: 0, J: 0, Distance: want}, {I: 0, J: 1, Distance: 0}, {I: 1, J: 0, Distance: 0}, {I: 1, J: 1, Distance: want}}
		if err != nil || !slices.Equal(got, wantPairs) {
			t.Errorf("cuda-fast model %+v: Cross(%q, %q) = %v, %v; want %v", s, a, b, got, err, wantPairs)
		}
	})
}
