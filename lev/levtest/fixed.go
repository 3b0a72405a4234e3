package levtest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

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
