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
// skip of an unavailable GPU algorithm into a failure: on a machine that has
// a GPU, its absence is a bug.
const RequireGPUEnv = "LEVLAB_REQUIRE_GPU"

// Run runs alg through the conformance suite, as sub-tests of t:
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
//   - options: for a parallel algorithm workers 1, 2, 3, 8 and 64 times
//     tiles 1, 2, 7, 63–65, a string's length ±1 and larger than the
//     strings; for a sequential one, that WithWorkers(n > 1) is an error and
//     ignored options change nothing; for a GPU one, block sizes;
//   - large: a pair of a few thousand symbols (smaller under -race or
//     -short).
//
// opts are given to every call before the suite's own options, which
// override them. Random inputs come from NewRand: a failure logs the
// LEVTEST_SEED that replays it.
//
// A GPU algorithm that lev reports unavailable (an error wrapping
// cudaext.ErrUnavailable) makes t skip with the reason, unless
// LEVLAB_REQUIRE_GPU=1, which makes it fail.
func Run(t *testing.T, alg lev.Algorithm, opts ...lev.Option) {
	t.Helper()
	run(t, alg, impl{bytes: lev.Distance, text: lev.DistanceString}, opts)
}

// RunPairs runs the suite through lev.Cross and lev.CrossStrings, a pair a
// call: alg's many-pairs path (for Auto, the block kernel) on every input
// the suite makes. There the workers are over the pairs, so a sequential
// algorithm takes any worker count.
func RunPairs(t *testing.T, alg lev.Algorithm, opts ...lev.Option) {
	t.Helper()
	run(t, alg, impl{bytes: crossOne, text: crossOneString, pairs: true}, opts)
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
// given: it reads as the cap's k+1, which capMax carries over.
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

// impl is what the suite calls: lev's two entry points, or a stand-in in
// levtest's own tests.
type impl struct {
	bytes func(a, b []byte, opts ...lev.Option) (int, error)
	text  func(a, b string, opts ...lev.Option) (int, error)
	pairs bool // through Cross: a sequential algorithm takes workers
}

type suite struct {
	alg  lev.Algorithm
	impl impl
	base []lev.Option
	// small is set under -race and -short: inputs of up to a couple of
	// thousand symbols instead of several thousand.
	small bool
}

func run(t *testing.T, alg lev.Algorithm, im impl, opts []lev.Option) {
	t.Helper()
	s := &suite{alg: alg, impl: im, base: opts, small: raceEnabled || testing.Short()}
	t.Logf("levtest: %s, %s=%d", alg, SeedEnv, Seed(t))
	if _, err := im.bytes([]byte("a"), []byte("b"), s.options(optSet{})...); err != nil {
		if alg.GPU() && errors.Is(err, cudaext.ErrUnavailable) {
			if os.Getenv(RequireGPUEnv) == "1" {
				t.Fatalf("%v (%s=1: a GPU is required here)", err, RequireGPUEnv)
			}
			t.Skipf("skipped: %v", err)
		}
		t.Fatalf("%s fails on the smallest input (%q vs %q): %v", alg, "a", "b", err)
	}
	t.Run("fixed", s.fixed)
	t.Run("random", s.random)
	t.Run("properties", s.properties)
	t.Run("text", s.text)
	t.Run("options", s.optionSets)
	t.Run("cap", s.caps)
	t.Run("large", s.large)
}

// options returns the options of one call: the algorithm, the caller's, then
// the set's.
func (s *suite) options(o optSet) []lev.Option {
	all := make([]lev.Option, 0, 1+len(s.base)+len(o.opts))
	all = append(all, lev.WithAlgorithm(s.alg))
	all = append(all, s.base...)
	return append(all, o.opts...)
}

// checker reports failures of one sub-test, and stops it after a few: an
// algorithm that is wrong everywhere should not bury the first message.
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
	d, err := c.s.impl.bytes(a, b, c.s.options(o)...)
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
	d, err := c.s.impl.text(a, b, c.s.options(o)...)
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
