package levtest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/lev"
)

// RequireGPUEnv names the environment variable that, set to 1, turns the
// skip of an unavailable GPU implementation into a failure: on a machine that has
// a GPU, its absence is a bug.
const RequireGPUEnv = "LEVLAB_REQUIRE_GPU"

// An Impl is one implementation of the distance that RunImpl runs the
// suite through: its two entry points, which take lev's options, and what
// it can do, which says the option sets it must take, refuse or ignore.
// AlgorithmImpl, CrossImpl and AlignImpl make the Impls of lev's own entry
// points.
type Impl struct {
	// Name names the implementation in the log and in failures, e.g.
	// "myers-parallel".
	Name string
	// Distance and DistanceString answer as lev.Distance and
	// lev.DistanceString do: bytes, and text counted in runes. Both are
	// needed.
	Distance       func(a, b []byte, opts ...lev.Option) (int, error)
	DistanceString func(a, b string, opts ...lev.Option) (int, error)
	// Options are given to every call before the suite's own, which
	// override them: the algorithm, a kernel, a model.
	Options []lev.Option
	// Parallel is set for an implementation that takes WithWorkers(n > 1);
	// one that is not must refuse it (but see Pairs).
	Parallel bool
	// GPU is set for an implementation that runs on a CUDA device: it is
	// run with block sizes, and skips where CUDA is unavailable.
	GPU bool
	// Tile is set for one that takes WithTile. Every CPU implementation is
	// run with tiles anyway (one that does not take them must ignore
	// them); a GPU one only where Tile is set, as its column chunk.
	Tile bool
	// WarpBlocks is set for a GPU implementation whose blocks are whole
	// warps: it is run with block sizes of 32 to 1024 and must refuse 48.
	WarpBlocks bool
	// Pairs is set for an implementation that answers through a
	// many-pairs path (lev.Cross), its workers over the pairs: a
	// sequential one takes any worker count, and a pair past a WithMax
	// cap is not given, which Distance reports as -1.
	Pairs bool
}

// RunImpl runs im through the conformance suite, as sub-tests of t:
//
//   - fixed: known answers (kitten/sitting, empty strings, a^n vs b^n, one
//     edit, rotations…) at lengths around the word size (63…193) and
//     1000±1, random and repetitive content, one string much longer than
//     the other, all 256 byte values, a string against its reverse;
//   - random: pairs of unequal lengths over alphabets of 2, 4, 26 and 256
//     symbols, checked against Reference, under random option sets;
//   - properties: symmetry, |la−lb| <= d <= max(la, lb), d == 0 iff a == b,
//     the triangle inequality, d(a, Mutate(a, k)) <= k, aliased inputs,
//     determinism, and inputs (and their spare capacity) left unchanged;
//   - text: DistanceString counting runes, non-ASCII, more than 256
//     distinct runes (CJK), invalid UTF-8;
//   - options: for a parallel implementation workers 1, 2, 3, 8 and 64
//     times tiles 1, 2, 7, 63–65, a string's length ±1 and larger than the
//     strings; for a sequential one, that WithWorkers(n > 1) is an error
//     and ignored options change nothing; for a GPU one, block sizes;
//   - cap: WithMax at, around and far from the distance;
//   - large: a pair of a few thousand symbols (smaller under -race or
//     -short).
//
// im.Options are given to every call before the suite's own options, which
// override them. Random inputs come from NewRand: a failure logs the
// LEVTEST_SEED that replays it.
//
// A GPU implementation that reports itself unavailable (an error wrapping
// cudaext.ErrUnavailable) makes t skip with the reason, unless
// LEVLAB_REQUIRE_GPU=1, which makes it fail.
func RunImpl(t *testing.T, im Impl) {
	t.Helper()
	s := &suite{im: im, small: raceEnabled || testing.Short()}
	t.Logf("levtest: %s, %s=%d", im.Name, SeedEnv, Seed(t))
	if _, err := im.Distance([]byte("a"), []byte("b"), s.options(optSet{})...); err != nil {
		if im.GPU && errors.Is(err, cudaext.ErrUnavailable) {
			if os.Getenv(RequireGPUEnv) == "1" {
				t.Fatalf("%v (%s=1: a GPU is required here)", err, RequireGPUEnv)
			}
			t.Skipf("skipped: %v", err)
		}
		t.Fatalf("%s fails on the smallest input (%q vs %q): %v", im.Name, "a", "b", err)
	}
	t.Run("fixed", s.fixed)
	t.Run("random", s.random)
	t.Run("properties", s.properties)
	t.Run("text", s.text)
	t.Run("options", s.optionSets)
	t.Run("cap", s.caps)
	t.Run("large", s.large)
}

type suite struct {
	im Impl
	// small is set under -race and -short: inputs of up to a couple of
	// thousand symbols instead of several thousand.
	small bool
}

// options returns the options of one call: the implementation's, then the
// set's.
func (s *suite) options(o optSet) []lev.Option {
	all := make([]lev.Option, 0, len(s.im.Options)+len(o.opts))
	all = append(all, s.im.Options...)
	return append(all, o.opts...)
}

// checker reports failures of one sub-test, and stops it after a few: an
// implementation that is wrong everywhere should not bury the first
// message.
type checker struct {
	t     *testing.T
	s     *suite
	fails int
}

const maxFailures = 10

func (s *suite) checker(t *testing.T) *checker { return &checker{t: t, s: s} }

func (c *checker) errorf(format string, args ...any) {
	c.t.Helper()
	c.t.Errorf(format, args...)
	if c.fails++; c.fails >= maxFailures {
		c.t.Fatalf("stopping after %d failures", c.fails)
	}
}

// distance returns Distance(a, b) under o, and whether it succeeded; it
// reports an error and any change to a, b or the bytes in their spare
// capacity.
func (c *checker) distance(what string, a, b []byte, o optSet) (int, bool) {
	c.t.Helper()
	keepA, keepB := slices.Clone(a[:cap(a)]), slices.Clone(b[:cap(b)])
	d, err := c.s.im.Distance(a, b, c.s.options(o)...)
	if !bytes.Equal(a[:cap(a)], keepA) || !bytes.Equal(b[:cap(b)], keepB) {
		c.errorf("%s: Distance(%s, %s) with %v changed its inputs", what, show(keepA[:len(a)]), show(keepB[:len(b)]), o)
		return 0, false
	}
	if err != nil {
		c.errorf("%s: Distance(%s, %s) with %v: %v", what, show(a), show(b), o, err)
		return 0, false
	}
	return d, true
}

// bytes checks that Distance(a, b) under o is want.
func (c *checker) bytes(what string, a, b []byte, want int, o optSet) {
	c.t.Helper()
	if d, ok := c.distance(what, a, b, o); ok && d != want {
		c.errorf("%s: Distance(%s, %s) with %v = %d, want %d", what, show(a), show(b), o, d, want)
	}
}

// ref checks Distance(a, b) under o against Reference.
func (c *checker) ref(what string, a, b []byte, o optSet) {
	c.t.Helper()
	c.bytes(what, a, b, Reference(a, b), o)
}

// text checks that DistanceString(a, b) under o is want.
func (c *checker) text(what string, a, b string, want int, o optSet) {
	c.t.Helper()
	d, err := c.s.im.DistanceString(a, b, c.s.options(o)...)
	switch {
	case err != nil:
		c.errorf("%s: DistanceString(%s, %s) with %v: %v", what, show(a), show(b), o, err)
	case d != want:
		c.errorf("%s: DistanceString(%s, %s) with %v = %d, want %d", what, show(a), show(b), o, d, want)
	}
}

// textRef checks DistanceString(a, b) under o against ReferenceString.
func (c *checker) textRef(what string, a, b string, o optSet) {
	c.t.Helper()
	c.text(what, a, b, ReferenceString(a, b), o)
}

// show quotes s, or its beginning (cut at a rune boundary) and length when
// it is long.
func show[T ~string | ~[]byte](s T) string {
	if len(s) <= 24 {
		return fmt.Sprintf("%q", s)
	}
	cut := 16
	for cut > 12 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q…(%d bytes)", s[:cut], len(s))
}
