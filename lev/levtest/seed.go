package levtest

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

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
