package levtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
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

// randomOptions draws an option set that alg accepts: a parallel algorithm
// gets random workers and tiles (some tied to the lengths la and lb), a GPU
// one random block sizes, a sequential one options it must ignore.
func (s *suite) randomOptions(rng *rand.Rand, la, lb int) optSet {
	var o optSet
	switch {
	case s.alg.GPU():
		if blocks := s.blockSizes(); rng.IntN(2) == 0 {
			o = o.block(blocks[rng.IntN(len(blocks))])
		}
		if s.alg == lev.CUDAFast && rng.IntN(2) == 0 {
			o = o.tile([]int{1, 2, 7, 32, 128, 1000}[rng.IntN(6)]) // the column chunk
		}
	case s.alg.Parallel():
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

// knownAnswers are distances worked out by hand (and checked against
// Reference in levtest's own tests).
var knownAnswers = []struct {
	a, b string
	d    int
}{
	{"kitten", "sitting", 3},
	{"sitting", "kitten", 3},
	{"", "", 0},
	{"", "x", 1},
	{"x", "", 1},
	{"x", "x", 0},
	{"x", "y", 1},
	{"ab", "ba", 2},
	{"abc", "cba", 2},
	{"abc", "", 3},
	{"flaw", "lawn", 2},
	{"saturday", "sunday", 3},
	{"intention", "execution", 5},
	{"book", "back", 2},
	{"GUMBO", "GAMBOL", 2},
	{"levenshtein", "frankenstein", 6},
	{"\x00", "\xff", 1},
	{"\x00\x00", "", 2},
	{"a\x00b", "ab", 1},
}

// boundaryLengths sit around the 64-bit word (Myers' blocks) and its
// multiples, and around 1000.
var boundaryLengths = []int{1, 2, 63, 64, 65, 127, 128, 129, 191, 192, 193, 999, 1000, 1001}

func repeat(pattern string, n int) []byte {
	return []byte(strings.Repeat(pattern, n/len(pattern)+1)[:n])
}

func reversed[S any](s []S) []S {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}

func (s *suite) fixed(t *testing.T) {
	c := s.checker(t)
	rng := NewRand(t)
	none := optSet{}
	for _, k := range knownAnswers {
		c.bytes("known answer", []byte(k.a), []byte(k.b), k.d, none)
	}

	// Answers known by construction, at every boundary length. Around 1000,
	// under -race or -short, fewer of them: a parallel algorithm pays for
	// every antidiagonal there, and the race detector multiplies it.
	for _, n := range boundaryLengths {
		thorough := !s.small || n < 200
		if !thorough && n != 1000 {
			continue
		}
		positions, cuts := []int{0, n / 2, n - 1}, []int{1, 64, n / 2}
		if !thorough {
			positions, cuts = []int{n / 2}, []int{64}
		}
		a := RandomBytes(rng, n, DNA)
		c.bytes("equal", a, slices.Clone(a), 0, none)
		c.bytes("empty vs n", nil, a, n, none)
		c.bytes("n vs empty", a, []byte{}, n, none)
		c.bytes("a^n vs b^n", repeat("a", n), repeat("b", n), n, none)
		c.bytes("a^n vs a^(n+3)", repeat("a", n), repeat("a", n+3), 3, none)
		c.bytes("a^(n+3) vs a^n", repeat("a", n+3), repeat("a", n), 3, none)
		for _, i := range positions {
			sub := slices.Clone(a)
			sub[i] = 'x' // not in DNA
			c.bytes(fmt.Sprintf("substitution at %d", i), a, sub, 1, none)
			c.bytes(fmt.Sprintf("deletion at %d", i), a, slices.Delete(slices.Clone(a), i, i+1), 1, none)
			c.bytes(fmt.Sprintf("insertion at %d", i), slices.Insert(slices.Clone(a), i, 'x'), a, 1, none)
		}
		c.bytes("insertion at the end", a, append(slices.Clone(a), 'x'), 1, none)
		if n >= 2 {
			// Delete the leading a, append an a; no single edit will do.
			c.bytes("(ab)^k vs (ba)^k", repeat("ab", n/2*2), repeat("ba", n/2*2), 2, none)
		}
		for _, k := range cuts {
			if 0 < k && k < n {
				c.bytes(fmt.Sprintf("without its first %d", k), a, a[k:], k, none)
				c.bytes(fmt.Sprintf("without its last %d", k), a[:n-k], a, k, none)
			}
		}
	}

	// Against the reference, at and around every boundary length.
	for _, n := range boundaryLengths {
		thorough := !s.small || n < 200
		others, edits := []int{n - 1, n, n + 1}, []int{1, 3, 17}
		if !thorough {
			others, edits = []int{n + 1}, []int{3}
		}
		a := RandomBytes(rng, n, DNA)
		for _, m := range others {
			c.ref(fmt.Sprintf("random %d vs %d", n, m), a, RandomBytes(rng, m, DNA), none)
		}
		c.ref("repetitive: (ab)* vs (abc)*", repeat("ab", n), repeat("abc", n+1), none)
		c.ref("repetitive: (aab)* vs a*", repeat("aab", n), repeat("a", n-1), none)
		c.ref("repetitive: (ACGT)* vs edited", repeat("ACGT", n), Mutate(rng, repeat("ACGT", n), 5, DNA), none)
		for _, k := range edits {
			c.ref(fmt.Sprintf("%d random edits", k), a, Mutate(rng, a, k, DNA), none)
		}
	}

	// One string much longer than the other.
	long := RandomBytes(rng, 3000, DNA)
	c.bytes("a substring", long, long[700:760], len(long)-60, none)
	c.bytes("a substring, swapped", long[2900:], long, 2900, none)
	c.bytes("x vs long without x", []byte("x"), long, len(long), none)
	for _, m := range []int{1, 5, 64, 65, 129} {
		short := RandomBytes(rng, m, DNA)
		c.ref(fmt.Sprintf("%d vs %d", m, len(long)), short, long, none)
		c.ref(fmt.Sprintf("%d vs %d", len(long), m), long, short, none)
	}

	// Every byte value.
	all := []byte(AllBytes)
	c.bytes("all bytes vs themselves", all, []byte(AllBytes), 0, none)
	c.bytes("all bytes vs rotated by one", all, append(slices.Clone(all[1:]), all[0]), 2, none)
	c.ref("all bytes vs reversed", all, reversed(all), none)
	r := RandomBytes(rng, 1000, AllBytes)
	shuffled := slices.Clone(r)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	c.ref("random bytes vs shuffled", r, shuffled, none)
	c.ref("random bytes 300 vs 257", RandomBytes(rng, 300, AllBytes), RandomBytes(rng, 257, AllBytes), none)

	// A string against its reverse.
	for _, n := range []int{2, 65, 100, 1000} {
		a := RandomBytes(rng, n, DNA)
		c.ref(fmt.Sprintf("random %d vs its reverse", n), a, reversed(a), none)
	}
	pal := append(slices.Clone(long[:500]), reversed(long[:500])...)
	c.bytes("palindrome vs its reverse", pal, reversed(pal), 0, none)
}

// randomLength draws mostly short lengths, where the boundaries are dense,
// and now and then one up to max.
func randomLength(rng *rand.Rand, max int) int {
	switch p := rng.IntN(100); {
	case p < 70:
		return rng.IntN(80)
	case p < 95:
		return rng.IntN(300)
	default:
		return rng.IntN(max + 1)
	}
}

func (s *suite) random(t *testing.T) {
	pairs, maxLen := 200, 1500
	if s.small {
		pairs, maxLen = 60, 600
	}
	for _, alphabet := range []string{Binary, DNA, Lowercase, AllBytes} {
		t.Run(fmt.Sprintf("alphabet=%d", len(alphabet)), func(t *testing.T) {
			c := s.checker(t)
			rng := NewRand(t)
			for i := range pairs {
				la, lb := randomLength(rng, maxLen), randomLength(rng, maxLen)
				a := RandomBytes(rng, la, alphabet)
				var b []byte
				switch rng.IntN(3) {
				case 0: // unrelated, of unequal lengths
					if lb == la {
						lb++
					}
					b = RandomBytes(rng, lb, alphabet)
				case 1: // close: a small distance, a narrow band
					b = Mutate(rng, a, 1+rng.IntN(8), alphabet)
				default: // a piece of a, with random ends
					i := rng.IntN(la + 1)
					j := i + rng.IntN(la-i+1)
					b = slices.Concat(RandomBytes(rng, rng.IntN(10), alphabet), a[i:j], RandomBytes(rng, rng.IntN(10), alphabet))
				}
				c.ref(fmt.Sprintf("pair %d", i), a, b, s.randomOptions(rng, len(a), len(b)))
			}
		})
	}
}

// withSpare returns a copy of s with spare capacity filled with a pattern,
// so that a write past len(s) shows.
func withSpare(s []byte) []byte {
	out := make([]byte, len(s), len(s)+16)
	copy(out, s)
	for i := len(s); i < cap(out); i++ {
		out[:cap(out)][i] = 0xa5
	}
	return out
}

func (s *suite) properties(t *testing.T) {
	c := s.checker(t)
	rng := NewRand(t)
	triples := 40
	if s.small {
		triples = 20
	}
	none := optSet{}
	for i := range triples {
		alphabet := []string{DNA, Lowercase}[i%2]
		a := RandomBytes(rng, randomLength(rng, 400), alphabet)
		k1, k2 := rng.IntN(20), rng.IntN(20)
		b := Mutate(rng, a, k1, alphabet)
		if i%4 == 3 {
			b = RandomBytes(rng, randomLength(rng, 400), alphabet)
			k1 = max(len(a), len(b)) // the bound that always holds
		}
		cc := Mutate(rng, b, k2, alphabet)
		o := s.randomOptions(rng, len(a), len(b))
		what := fmt.Sprintf("triple %d", i)

		a, b, cc = withSpare(a), withSpare(b), withSpare(cc)
		ab, ok1 := c.distance(what, a, b, o)
		ba, ok2 := c.distance(what, b, a, o)
		bc, ok3 := c.distance(what, b, cc, o)
		ac, ok4 := c.distance(what, a, cc, o)
		again, ok5 := c.distance(what, a, b, o)
		if !(ok1 && ok2 && ok3 && ok4 && ok5) {
			continue
		}
		if ab != ba {
			c.errorf("%s: not symmetric: d(a, b) = %d, d(b, a) = %d, a = %s, b = %s, %v", what, ab, ba, show(a), show(b), o)
		}
		if again != ab {
			c.errorf("%s: not deterministic: d(a, b) = %d then %d, a = %s, b = %s, %v", what, ab, again, show(a), show(b), o)
		}
		if lo, hi := abs(len(a)-len(b)), max(len(a), len(b)); ab < lo || ab > hi {
			c.errorf("%s: d(a, b) = %d out of [|la−lb|, max(la, lb)] = [%d, %d], a = %s, b = %s, %v", what, ab, lo, hi, show(a), show(b), o)
		}
		if (ab == 0) != bytes.Equal(a, b) {
			c.errorf("%s: d(a, b) = %d but a == b is %v, a = %s, b = %s, %v", what, ab, bytes.Equal(a, b), show(a), show(b), o)
		}
		if ab > k1 {
			c.errorf("%s: d(a, b) = %d, but b is a with %d edits, a = %s, b = %s, %v", what, ab, k1, show(a), show(b), o)
		}
		if bc > k2 {
			c.errorf("%s: d(b, c) = %d, but c is b with %d edits, b = %s, c = %s, %v", what, bc, k2, show(b), show(cc), o)
		}
		if ac > ab+bc || ab > ac+bc || bc > ab+ac {
			c.errorf("%s: no triangle: d(a, b) = %d, d(b, c) = %d, d(a, c) = %d, %v", what, ab, bc, ac, o)
		}
	}

	// Aliased and nil inputs.
	buf := RandomBytes(rng, 300, DNA)
	c.bytes("the same slice twice", buf, buf, 0, none)
	c.ref("overlapping slices", buf[:200], buf[100:], none)
	c.ref("overlapping slices, shifted by one", buf[:299], buf[1:], none)
	c.bytes("nil vs nil", nil, nil, 0, none)
	c.bytes("nil vs empty", nil, []byte{}, 0, none)
	c.bytes("empty vs abc", []byte{}, []byte("abc"), 3, none)
	c.bytes("abc vs nil", []byte("abc"), nil, 3, none)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Rune alphabets for the text tests, made at first use: the CJK block is
// 84 KB, which every program that imports levtest (levlab, for verify's
// cases) would otherwise build as it starts.
var (
	cjkRunes   = sync.OnceValue(func() []rune { return runeRange(0x4e00, 0x9fff) }) // CJK Unified Ideographs: far more than 256
	mixedRunes = sync.OnceValue(func() []rune {
		return slices.Concat(
			runeRange('a', 'z'),
			runeRange(0xc0, 0xff),   // Latin-1 letters: two bytes
			runeRange(0x391, 0x3a9), // Greek capitals
			runeRange(0x4e00, 0x4e3f),
			runeRange(0x1f600, 0x1f64f), // emoji: four bytes
			[]rune{utf8.RuneError},
		)
	})
)

// knownTexts are distances in runes worked out by hand.
var knownTexts = []struct {
	a, b string
	d    int
}{
	{"héllo", "hello", 1},
	{"naïve", "naive", 1},
	{"Ünïcödé", "Unicode", 4},
	{"日本語", "日本", 1},
	{"日本語", "", 3},
	{"", "😀😀", 2},
	{"😀", "😁", 1},
	{"ß", "ss", 2},
	{"é", "e\u0301", 2}, // no normalisation: é vs e + combining acute
	{"\xff", "", 1},
	{"\xff", "\xfe", 0},       // both are U+FFFD
	{"a\xffb", "a\uFFFDb", 0}, // an invalid byte is U+FFFD
	{"\xe6\x97", "日", 2},      // a truncated 日 is two invalid bytes
	{"日\xff本", "日本", 1},
	{"κόσμε", "kosme", 5},
}

func (s *suite) text(t *testing.T) {
	c := s.checker(t)
	rng := NewRand(t)
	none := optSet{}
	for _, k := range knownTexts {
		c.text("known answer", k.a, k.b, k.d, none)
		c.text("known answer, swapped", k.b, k.a, k.d, none)
	}
	for _, k := range knownAnswers {
		c.text("known ASCII answer", k.a, k.b, k.d, none)
	}

	// ASCII text, which lev compares as bytes.
	for range 10 {
		a, b := RandomBytes(rng, randomLength(rng, 300), Lowercase), RandomBytes(rng, randomLength(rng, 300), Lowercase)
		c.textRef("ASCII", string(a), string(b), s.randomOptions(rng, len(a), len(b)))
	}

	text := func(n int, alphabet []rune) []rune { return randomRunes(rng, n, alphabet) }
	cjk, mixed := cjkRunes(), mixedRunes()
	check := func(what string, a, b []rune) {
		c.t.Helper()
		c.text(what, string(a), string(b), ReferenceRunes(a, b), s.randomOptions(rng, len(a), len(b)))
	}
	// Many distinct runes: the codes do not fit a byte.
	for _, n := range []int{63, 64, 65, 127, 128, 129, 300, 1000} {
		a := text(n, cjk)
		check(fmt.Sprintf("CJK %d vs random", n), a, text(n-1+rng.IntN(3), cjk))
		check(fmt.Sprintf("CJK %d vs edited", n), a, mutate(rng, a, 1+rng.IntN(10), cjk))
		m := text(n, mixed)
		check(fmt.Sprintf("mixed %d vs edited", n), m, mutate(rng, m, 5, mixed))
	}
	check("few distinct vs many", []rune(strings.Repeat("a", 200)), text(150, cjk))
	check("many distinct vs few", text(150, cjk), []rune(strings.Repeat("日", 200)))
	check("ASCII vs CJK", []rune(string(RandomBytes(rng, 100, Lowercase))), text(120, cjk))
	// Around 256 distinct runes in the first string, where codes stop
	// fitting a byte; the second has runes of its own too.
	for _, k := range []int{254, 255, 256, 257} {
		alphabet := cjk[1000 : 1000+k]
		a := append(slices.Clone(alphabet), text(100, alphabet)...)
		rng.Shuffle(len(a), func(i, j int) { a[i], a[j] = a[j], a[i] })
		b := mutate(rng, a, 40, cjk[:2000])
		check(fmt.Sprintf("%d distinct runes", k), a, b)
	}
	// Invalid UTF-8: random bytes are mostly invalid sequences.
	for range 10 {
		a := RandomBytes(rng, randomLength(rng, 300), AllBytes)
		b := Mutate(rng, a, 5, AllBytes)
		c.textRef("random bytes as text", string(a), string(b), s.randomOptions(rng, len(a), len(b)))
	}
	withInvalid := slices.Concat([]byte(string(text(50, cjk))), []byte{0xff, 0xe6, 0x97}, []byte(string(text(50, cjk))))
	c.textRef("invalid bytes between CJK", string(withInvalid), string(text(90, cjk)), none)
}

func (s *suite) optionSets(t *testing.T) {
	rng := NewRand(t)
	switch {
	case s.alg.GPU():
		s.gpuOptions(t, rng)
	case s.alg.Parallel():
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
		if s.impl.pairs {
			break
		}
		opts := s.options(optSet{}.workers(w))
		for _, in := range [][2]string{{"", ""}, {"kitten", "sitting"}} {
			_, err := s.impl.bytes([]byte(in[0]), []byte(in[1]), opts...)
			s.wantWorkersError(t, "Distance", w, in, err)
			_, err = s.impl.text(in[0], in[1], opts...)
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
		t.Errorf("%s(%q, %q) with workers=%d on sequential %s: no error, want one wrapping lev.ErrInvalidOption", fn, in[0], in[1], w, s.alg)
	case !errors.Is(err, lev.ErrInvalidOption):
		t.Errorf("%s(%q, %q) with workers=%d on sequential %s: %v, want an error wrapping lev.ErrInvalidOption", fn, in[0], in[1], w, s.alg, err)
	case !strings.Contains(err.Error(), fmt.Sprint(w)):
		t.Errorf("%s(%q, %q) with workers=%d on sequential %s: error %q does not name the value %d", fn, in[0], in[1], w, s.alg, err, w)
	}
}

// blockSizes are the block sizes a GPU algorithm is run with: cuda-fast's
// blocks are whole warps (anything else is refused, and checked so in
// gpuOptions); the others take any size up to 1024.
func (s *suite) blockSizes() []int {
	if s.alg == lev.CUDAFast {
		return []int{32, 64, 128, 256, 1024}
	}
	return []int{1, 2, 32, 128, 256, 1000, 1024}
}

func (s *suite) gpuOptions(t *testing.T, rng *rand.Rand) {
	blocks := s.blockSizes()
	if s.alg == lev.CUDAFast {
		_, err := s.impl.bytes([]byte("ab"), []byte("b"), s.options(optSet{}.block(48))...)
		if !errors.Is(err, lev.ErrInvalidOption) || !strings.Contains(err.Error(), "48") {
			t.Errorf("%s with block size 48: %v; want an error wrapping lev.ErrInvalidOption that names 48", s.alg, err)
		}
	}
	var sets []optSet
	for _, b := range blocks {
		sets = append(sets, optSet{}.block(b), optSet{}.block(b).tile(7))
	}
	sets = append(sets, optSet{}.workers(1), optSet{}.workers(64), optSet{}.noBand())
	s.runOptionSets(t, rng, sets, nil)
}

func (s *suite) large(t *testing.T) {
	c := s.checker(t)
	rng := NewRand(t)
	n := 5000
	if s.small {
		n = 1500
	}
	sets := []optSet{{}}
	if s.alg.Parallel() && !s.alg.GPU() {
		sets = append(sets, optSet{}.workers(2), optSet{}.workers(3).tile(100))
	}
	a := RandomBytes(rng, n, DNA)
	b := RandomBytes(rng, n-3, DNA)
	near := Mutate(rng, a, 10, DNA)
	wantAB, wantNear := Reference(a, b), Reference(a, near)
	for _, o := range sets {
		c.bytes(fmt.Sprintf("random %d vs %d", n, n-3), a, b, wantAB, o)
		c.bytes(fmt.Sprintf("%d vs 10 edits", n), a, near, wantNear, o)
		c.bytes(fmt.Sprintf("A^%d vs C^%d", n, n), repeat("A", n), repeat("C", n), n, o)
	}
}

// caps checks WithMax: the distance when within the cap, k+1 past it
// (through Cross: no pair past it), on random pairs and caps around their
// distance.
func (s *suite) caps(t *testing.T) {
	rng := NewRand(t)
	c := s.checker(t)
	n := 40
	if s.small {
		n = 15
	}
	for it := range n {
		la := 65 + randomLength(rng, 400) // past a word
		a := RandomBytes(rng, la, DNA)
		var b []byte
		switch it % 3 {
		case 0:
			b = RandomBytes(rng, randomLength(rng, 400), DNA)
		case 1:
			// 0 to 3 edits: bands narrower than a word, even none
			b = Mutate(rng, a, it%4, DNA)
		default:
			b = Mutate(rng, a, rng.IntN(200), Lowercase)
		}
		d := Reference(a, b)
		for _, k := range []int{0, 1, max(0, d-1), d, d + 1, rng.IntN(2*d + 2), 1 << 20} {
			want := d
			if d > k {
				want = k + 1
			}
			got, ok := c.distance(fmt.Sprintf("cap %d", k), a, b, optSet{}.with(fmt.Sprintf("max=%d", k), lev.WithMax(k)))
			if ok && got == -1 && s.impl.pairs {
				got = k + 1 // Cross gives no pair past the cap
			}
			if ok && got != want {
				c.errorf("Distance(%s, %s) with max=%d = %d, want %d (distance %d)", show(a), show(b), k, got, want, d)
			}
		}
	}
}
