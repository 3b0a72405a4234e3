package levtest

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Alphabets for RandomBytes.
const (
	Binary    = "01"
	DNA       = "ACGT" // the reports' random strings
	Lowercase = "abcdefghijklmnopqrstuvwxyz"
)

// AllBytes is the alphabet of all 256 byte values, 0x00 to 0xff in order.
var AllBytes = func() string {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}()

// RandomBytes returns n bytes drawn uniformly and independently from
// alphabet, which must not be empty.
func RandomBytes(rng *rand.Rand, n int, alphabet string) []byte {
	if alphabet == "" {
		panic("levtest: RandomBytes with an empty alphabet")
	}
	s := make([]byte, n)
	for i := range s {
		s[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return s
}

// Mutate returns a copy of s with edits random single-symbol edits
// (substitution, insertion or deletion, new symbols drawn from alphabet), so
// that the distance between s and the result is at most edits. It makes the
// pairs of small distance, like the reports' "partially different" cases.
func Mutate(rng *rand.Rand, s []byte, edits int, alphabet string) []byte {
	return mutate(rng, s, edits, []byte(alphabet))
}

// Diverge returns a copy of s diverged by about permille/1000 edits a
// symbol, spread uniformly: before each symbol, with that probability, a
// substitution by a symbol of alphabet other than it, an insertion of one,
// or a deletion of it, one in three each — "similar sequences" as read
// aligners and A*PA2's benchmarks make them. It takes O(len(s)), where
// Mutate's edits each take O(len(s)). permille must be in [0, 1000].
func Diverge(rng *rand.Rand, s []byte, permille int, alphabet string) []byte {
	if permille < 0 || permille > 1000 || len(alphabet) < 2 {
		panic(fmt.Sprintf("levtest: Diverge by %d‰ over %d symbols: want 0 to 1000‰ and 2 symbols or more", permille, len(alphabet)))
	}
	out := make([]byte, 0, len(s)+len(s)*permille/1000+1)
	for _, c := range s {
		if rng.IntN(1000) >= permille {
			out = append(out, c)
			continue
		}
		other := alphabet[rng.IntN(len(alphabet))]
		for other == c {
			other = alphabet[rng.IntN(len(alphabet))]
		}
		switch rng.IntN(3) {
		case 0:
			out = append(out, other)
		case 1:
			out = append(out, other, c)
		}
	}
	return out
}

func mutate[S any](rng *rand.Rand, s []S, edits int, alphabet []S) []S {
	out := slices.Clone(s)
	for range edits {
		i := rng.IntN(len(out) + 1)
		op := rng.IntN(3)
		if i == len(out) {
			op = 1 // only an insertion fits at the end
		}
		c := alphabet[rng.IntN(len(alphabet))]
		switch op {
		case 0:
			out[i] = c
		case 1:
			out = slices.Insert(out, i, c)
		default:
			out = slices.Delete(out, i, i+1)
		}
	}
	return out
}

// randomRunes returns n runes drawn uniformly from alphabet.
func randomRunes(rng *rand.Rand, n int, alphabet []rune) []rune {
	s := make([]rune, n)
	for i := range s {
		s[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return s
}

// runeRange returns the runes lo through hi.
func runeRange(lo, hi rune) []rune {
	r := make([]rune, 0, hi-lo+1)
	for c := lo; c <= hi; c++ {
		r = append(r, c)
	}
	return r
}

// SeedEnv names the environment variable that fixes the base seed of every
// random input: LEVTEST_SEED=12345 go test ./lev replays a logged failure.
const SeedEnv = "LEVTEST_SEED"

var baseSeed = sync.OnceValues(func() (uint64, error) {
	if s, ok := os.LookupEnv(SeedEnv); ok {
		v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("levtest: %s=%q is not an unsigned decimal integer", SeedEnv, s)
		}
		return v, nil
	}
	return uint64(time.Now().UnixNano()), nil
})

// Seed returns the base seed of this process: the value of LEVTEST_SEED
// where it is set, else one taken from the clock once. It fails tb when
// LEVTEST_SEED is not a number.
func Seed(tb testing.TB) uint64 {
	tb.Helper()
	s, err := baseSeed()
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// NewRand returns a generator for tb, seeded from the base seed and tb's
// name, so that a sub-test draws the same inputs whether it runs alone
// (go test -run) or with the others. When tb fails, it logs the command that
// replays it.
func NewRand(tb testing.TB) *rand.Rand {
	tb.Helper()
	seed := Seed(tb)
	h := fnv.New64a()
	h.Write([]byte(tb.Name()))
	tb.Cleanup(func() {
		if tb.Failed() {
			tb.Logf("replay: %s=%d go test -run '%s'", SeedEnv, seed, runPattern(tb.Name()))
		}
	})
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// runPattern returns a -run pattern that selects exactly the test name.
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}
