package levtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/levlab/levlab/lev"
)

func (s *suite) optionSets(t *testing.T) {
	rng := NewRand(t)
	switch {
	case s.im.GPU:
		s.gpuOptions(t, rng)
	case s.im.Parallel:
		s.parallelOptions(t, rng)
	default:
		s.sequentialOptions(t, rng)
	}
}

// optionInput is one pair the option sets are run on, with its distance.
type optionInput struct {
	what string
	a, b []byte
	text bool // through DistanceString
	want int
}

// optionInputs returns the pairs every option set is run on: the main pair
// first (lengths 300 and 257, whose ±1 are among the tiles), pairs around a
// word, pairs too small for the workers, equal and close strings, and texts
// that take the rune paths.
func optionInputs(rng *rand.Rand) []optionInput {
	main := RandomBytes(rng, 300, DNA)
	in := []optionInput{
		{what: "DNA 300 vs 257", a: main, b: RandomBytes(rng, 257, DNA)},
		{what: "bytes 129 vs 128", a: RandomBytes(rng, 129, AllBytes), b: RandomBytes(rng, 128, AllBytes)},
		{what: "binary 65 vs 64", a: RandomBytes(rng, 65, Binary), b: RandomBytes(rng, 64, Binary)},
		{what: "1 vs 100", a: RandomBytes(rng, 1, DNA), b: RandomBytes(rng, 100, DNA)},
		{what: "100 vs 1", a: RandomBytes(rng, 100, DNA), b: RandomBytes(rng, 1, DNA)},
		{what: "3 vs 5", a: []byte("abc"), b: []byte("xbcyz")},
		{what: "equal 300", a: main, b: slices.Clone(main)},
		{what: "300 vs 5 edits", a: main, b: Mutate(rng, main, 5, DNA)},
		{what: "CJK text", a: []byte(string(randomRunes(rng, 150, cjkRunes()))), b: []byte(string(randomRunes(rng, 140, cjkRunes()))), text: true},
		{what: "random bytes as text", a: RandomBytes(rng, 200, AllBytes), b: RandomBytes(rng, 180, AllBytes), text: true},
	}
	for i := range in {
		if in[i].text {
			in[i].want = ReferenceString(string(in[i].a), string(in[i].b))
		} else {
			in[i].want = Reference(in[i].a, in[i].b)
		}
	}
	return in
}

// runOptionSets checks every option set of sets on every input, and those of
// mainSets on the main pair only (tiles tied to its lengths mean nothing
// for the others).
func (s *suite) runOptionSets(t *testing.T, rng *rand.Rand, sets, mainSets []optSet) {
	t.Helper()
	c := s.checker(t)
	inputs := optionInputs(rng)
	check := func(o optSet, in optionInput) {
		if in.text {
			c.text(in.what, string(in.a), string(in.b), in.want, o)
		} else {
			c.bytes(in.what, in.a, in.b, in.want, o)
		}
	}
	for _, o := range sets {
		for _, in := range inputs {
			check(o, in)
		}
	}
	for _, o := range mainSets {
		check(o, inputs[0])
	}
}

func (s *suite) parallelOptions(t *testing.T, rng *rand.Rand) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var sets, mainSets []optSet
	for _, w := range []int{1, 2, 3, 8, 64} {
		o := optSet{}.workers(w)
		sets = append(sets, o)
		// Tiles of one cell, a few, odd, a word, and larger than every
		// string.
		for _, tile := range []int{1, 2, 7, 64, 1000, 1 << 20} {
			sets = append(sets, o.tile(tile))
		}
		// Tiles around a word and around each length of the main pair
		// (300 and 257).
		for _, tile := range []int{63, 65, 256, 257, 258, 299, 300, 301} {
			mainSets = append(mainSets, o.tile(tile))
		}
	}
	sets = append(sets,
		optSet{}.workers(0),
		optSet{}.tile(5),
		optSet{}.noBand(),
		optSet{}.workers(1).noBand(),
		optSet{}.workers(2).tile(64).noBand(),
		optSet{}.workers(3).tile(1).noBand(),
		optSet{}.workers(2).block(32), // ignored by CPU algorithms
		optSet{}.workers(2).with("context=live", lev.WithContext(ctx)),
	)
	s.runOptionSets(t, rng, sets, mainSets)
}

func (s *suite) sequentialOptions(t *testing.T, rng *rand.Rand) {
	// More than one worker is an error, not a silent single-threaded run,
	// whatever the inputs (through Cross the workers are over the pairs).
	for _, w := range []int{2, 3, 8, 64, lev.MaxWorkers} {
		if s.im.Pairs {
			break
		}
		opts := s.options(optSet{}.workers(w))
		for _, in := range [][2]string{{"", ""}, {"kitten", "sitting"}} {
			_, err := s.im.Distance([]byte(in[0]), []byte(in[1]), opts...)
			s.wantWorkersError(t, "Distance", w, in, err)
			_, err = s.im.DistanceString(in[0], in[1], opts...)
			s.wantWorkersError(t, "DistanceString", w, in, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Workers 0 (GOMAXPROCS) and 1 are fine; tiles and block sizes are
	// ignored.
	sets := []optSet{
		optSet{}.workers(0),
		optSet{}.workers(1),
		optSet{}.tile(1),
		optSet{}.tile(7),
		optSet{}.tile(1 << 20),
		optSet{}.block(1024),
		optSet{}.noBand(),
		optSet{}.workers(1).tile(64).noBand(),
		optSet{}.with("context=live", lev.WithContext(ctx)),
	}
	s.runOptionSets(t, rng, sets, nil)
}

func (s *suite) wantWorkersError(t *testing.T, fn string, w int, in [2]string, err error) {
	t.Helper()
	switch {
	case err == nil:
		t.Errorf("%s(%q, %q) with workers=%d on sequential %s: no error, want one wrapping lev.ErrInvalidOption", fn, in[0], in[1], w, s.im.Name)
	case !errors.Is(err, lev.ErrInvalidOption):
		t.Errorf("%s(%q, %q) with workers=%d on sequential %s: %v, want an error wrapping lev.ErrInvalidOption", fn, in[0], in[1], w, s.im.Name, err)
	case !strings.Contains(err.Error(), fmt.Sprint(w)):
		t.Errorf("%s(%q, %q) with workers=%d on sequential %s: error %q does not name the value %d", fn, in[0], in[1], w, s.im.Name, err, w)
	}
}

// blockSizes are the block sizes a GPU implementation is run with: for one
// whose blocks are whole warps, 32 to 1024 (gpuOptions checks that it
// refuses 48); for the others any size up to 1024.
func (s *suite) blockSizes() []int {
	if s.im.WarpBlocks {
		return []int{32, 64, 128, 256, 1024}
	}
	return []int{1, 2, 32, 128, 256, 1000, 1024}
}

func (s *suite) gpuOptions(t *testing.T, rng *rand.Rand) {
	blocks := s.blockSizes()
	if s.im.WarpBlocks {
		_, err := s.im.Distance([]byte("ab"), []byte("b"), s.options(optSet{}.block(48))...)
		if !errors.Is(err, lev.ErrInvalidOption) || !strings.Contains(err.Error(), "48") {
			t.Errorf("%s with block size 48: %v; want an error wrapping lev.ErrInvalidOption that names 48", s.im.Name, err)
		}
	}
	var sets []optSet
	for _, b := range blocks {
		sets = append(sets, optSet{}.block(b), optSet{}.block(b).tile(7))
	}
	sets = append(sets, optSet{}.workers(1), optSet{}.workers(64), optSet{}.noBand())
	s.runOptionSets(t, rng, sets, nil)
}
