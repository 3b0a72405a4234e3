package levtest

import (
	"fmt"

	"github.com/levlab/levlab/lev"
)

// AlgorithmImpl is alg through lev.Distance and lev.DistanceString, with
// opts (a kernel, a model) before the suite's own options: what alg can do
// comes from lev's table (Parallel, GPU, TakesTile), and cuda-fast's blocks
// are whole warps.
func AlgorithmImpl(alg lev.Algorithm, opts ...lev.Option) Impl {
	return Impl{
		Name:           alg.String(),
		Distance:       lev.Distance,
		DistanceString: lev.DistanceString,
		Options:        append([]lev.Option{lev.WithAlgorithm(alg)}, opts...),
		Parallel:       alg.Parallel(),
		GPU:            alg.GPU(),
		Tile:           alg.TakesTile(),
		WarpBlocks:     alg == lev.CUDAFast,
	}
}

// CrossImpl is alg through lev.Cross and lev.CrossStrings, a pair a call:
// alg's many-pairs path (for Auto, the block kernel) on every input the
// suite makes. There the workers are over the pairs, so a sequential
// algorithm takes any worker count.
func CrossImpl(alg lev.Algorithm, opts ...lev.Option) Impl {
	im := AlgorithmImpl(alg, opts...)
	im.Name += " through Cross"
	im.Distance, im.DistanceString, im.Pairs = crossOne, crossOneString, true
	return im
}

// crossOne is Distance through Cross: one pair.
func crossOne(a, b []byte, opts ...lev.Option) (int, error) {
	return onePair(func(fn func(lev.Pair) error) error { return lev.Cross([][]byte{a}, [][]byte{b}, fn, opts...) })
}

// crossOneString is DistanceString through CrossStrings.
func crossOneString(a, b string, opts ...lev.Option) (int, error) {
	return onePair(func(fn func(lev.Pair) error) error { return lev.CrossStrings([]string{a}, []string{b}, fn, opts...) })
}

// onePair returns the distance of the one pair cross gives, or an error if
// it gives another number of pairs. Under a cap a pair past it is not
// given: it reads as -1 (Impl.Pairs), which the cap sub-test takes for
// the cap's k+1.
func onePair(cross func(fn func(lev.Pair) error) error) (int, error) {
	var got []lev.Pair
	if err := cross(func(p lev.Pair) error { got = append(got, p); return nil }); err != nil {
		return 0, err
	}
	switch {
	case len(got) == 1 && got[0].I == 0 && got[0].J == 0:
		return got[0].Distance, nil
	case len(got) == 0:
		return -1, nil // past the cap: the caller knows k
	}
	return 0, fmt.Errorf("levtest: Cross of one pair gave %v", got)
}

// AlignImpl is lev.Align and lev.AlignString: every input of every
// sub-test is aligned, and the alignment must pass CheckAlignment before
// its Distance is compared with what the case wants (the reference
// distance, or k+1 past a cap). opts are as for AlgorithmImpl; the
// algorithm is Auto, the only one Align takes.
func AlignImpl(opts ...lev.Option) Impl {
	im := AlgorithmImpl(lev.Auto, opts...)
	im.Name = "align"
	im.Distance, im.DistanceString = alignBytes, alignText
	return im
}

func alignBytes(a, b []byte, opts ...lev.Option) (int, error) {
	al, err := lev.Align(a, b, opts...)
	if err != nil {
		return 0, err
	}
	if msg := CheckAlignment(a, b, al, Reference(a, b)); msg != "" {
		return 0, fmt.Errorf("levtest: Align gave %s: %s", show(al.CIGAR()), msg)
	}
	return al.Distance, nil
}

func alignText(a, b string, opts ...lev.Option) (int, error) {
	al, err := lev.AlignString(a, b, opts...)
	if err != nil {
		return 0, err
	}
	if msg := CheckAlignment([]rune(a), []rune(b), al, ReferenceString(a, b)); msg != "" {
		return 0, fmt.Errorf("levtest: AlignString gave %s: %s", show(al.CIGAR()), msg)
	}
	return al.Distance, nil
}
