package levtest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/levlab/levlab/lev"
)

// optSet is a set of options with a readable name for messages.
type optSet struct {
	name []string
	opts []lev.Option
}

func (o optSet) String() string {
	if len(o.name) == 0 {
		return "default options"
	}
	return strings.Join(o.name, ",")
}

func (o optSet) with(name string, opt lev.Option) optSet {
	return optSet{
		name: append(slices.Clip(o.name), name),
		opts: append(slices.Clip(o.opts), opt),
	}
}

func (o optSet) workers(n int) optSet {
	return o.with(fmt.Sprintf("workers=%d", n), lev.WithWorkers(n))
}

func (o optSet) tile(n int) optSet { return o.with(fmt.Sprintf("tile=%d", n), lev.WithTile(n)) }

func (o optSet) block(n int) optSet {
	return o.with(fmt.Sprintf("block=%d", n), lev.WithBlockSize(n))
}

func (o optSet) noBand() optSet { return o.with("noband", lev.WithoutBand()) }

// randomOptions draws an option set that the implementation accepts: a
// parallel one gets random workers and tiles (some tied to the lengths la
// and lb), a GPU one random block sizes (and column chunks where it takes
// them), a sequential one options it must ignore.
func (s *suite) randomOptions(rng *rand.Rand, la, lb int) optSet {
	var o optSet
	switch {
	case s.im.GPU:
		if blocks := s.blockSizes(); rng.IntN(2) == 0 {
			o = o.block(blocks[rng.IntN(len(blocks))])
		}
		if s.im.Tile && rng.IntN(2) == 0 {
			o = o.tile([]int{1, 2, 7, 32, 128, 1000}[rng.IntN(6)]) // the column chunk
		}
	case s.im.Parallel:
		if w := []int{0, 1, 2, 3, 4, 8}[rng.IntN(6)]; w > 0 {
			o = o.workers(w)
		}
		if t := []int{0, 1, 2, 3, 7, 16, 63, 64, 65, 128, la - 1, la, la + 1, lb - 1, lb, lb + 1}[rng.IntN(16)]; t > 0 {
			o = o.tile(t)
		}
	default:
		if rng.IntN(4) == 0 {
			o = o.workers(1)
		}
		if rng.IntN(4) == 0 {
			o = o.tile(1 + rng.IntN(100))
		}
	}
	if rng.IntN(8) == 0 {
		o = o.noBand()
	}
	return o
}
