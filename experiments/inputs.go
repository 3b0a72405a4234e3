package experiments

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/levlab/levlab/records"
)

// The cases a Point's inputs can be made by, as records names them. Every case draws its symbols
// uniformly and independently from a 4-letter alphabet: the reports' random
// strings (report 000's Listing 1 draws from {a, b, c, d}).
const (
	// CaseRandom: a and b drawn independently from "abcd", any lengths.
	// The distance of two such strings of length n is about 0.52n.
	CaseRandom = records.CaseRandom
	// CaseDNA: a and b drawn independently from "ACGT", any lengths. The
	// same statistics as CaseRandom under another name for the symbols;
	// the peers experiment uses it because edlib, like most edit-distance
	// libraries timed in the literature, is benchmarked on DNA.
	CaseDNA = records.CaseDNA
	// CaseIdentical: b is a copy of a random a (report 002's "two
	// identical strings"); LenA must equal LenB. The distance is 0.
	CaseIdentical = records.CaseIdentical
	// CasePartial: b is a random a with PartialPercent percent of its
	// positions (at least one) substituted by another symbol (report 002's
	// "partially different", a small score relative to the length); LenA
	// must equal LenB. The distance is at most that many.
	CasePartial = records.CasePartial
	// CaseDifferent: a drawn from "abcd", b from "wxyz", so that no symbol
	// is in common (report 002's "completely different"); any lengths. The
	// distance is max(LenA, LenB).
	CaseDifferent = records.CaseDifferent
	// CaseDiverged: b is a random DNA a (ACGT) with DivergedPercent
	// percent of its positions (at least one) edited, as a sequencing read
	// differs from its reference: a third of them substituted, a third
	// with a symbol inserted after, a third deleted (the remainder
	// substituted), so that b is as long as a; LenA must equal LenB. The
	// distance is at most that many edits.
	CaseDiverged = records.CaseDiverged
	// CaseWords: the word list at WordsPath, and LenA typos made from its
	// words (one random edit each), for the suggest kinds; LenB is 0.
	CaseWords = records.CaseWords
)

// WordsPath is the word list of CaseWords: Debian's wamerican (about
// 104,000 words, UTF-8). Where it is missing, a words point is skipped,
// saying so.
var WordsPath = "/usr/share/dict/words"

// PartialPercent is the share of positions CasePartial substitutes.
const PartialPercent = 2

// DivergedPercent is the share of positions CaseDiverged edits.
const DivergedPercent = 1

// Cases lists every case Inputs knows for two strings (CaseWords, the
// suggest kinds' own, apart).
func Cases() []string {
	return []string{CaseRandom, CaseDNA, CaseIdentical, CasePartial, CaseDiverged, CaseDifferent}
}

const (
	abcd = "abcd"
	acgt = "ACGT"
	wxyz = "wxyz"
)

// Inputs returns the two inputs of a point of experiment e, made
// deterministically from the experiment, the point and its case. A
// many-pairs point (Pairs, PeerPairs) has one input: LenA strings of
// LenB to 2·LenB symbols of ACGT (case dna), one a line (PairSet splits
// them); b is nil.
//
// The generator is seeded from the experiment's name, the case and the two
// lengths only, not from the algorithm or its parameters: every point of an
// experiment at the same size times the same pair, so the algorithms are
// compared on identical inputs and must agree on the distance that the
// records hold. Time and memory O(LenA + LenB).
func Inputs(e Experiment, p Point) (a, b []byte, err error) {
	if p.LenA < 0 || p.LenB < 0 {
		return nil, nil, fmt.Errorf("experiments: %s: lengths %d and %d must not be negative", e.Name, p.LenA, p.LenB)
	}
	if !slices.Contains(Cases(), p.Case) && p.Case != CaseWords {
		return nil, nil, fmt.Errorf("experiments: %s: case %q is unknown; valid: %s, %s", e.Name, p.Case, strings.Join(Cases(), ", "), CaseWords)
	}
	if (p.Case == CaseIdentical || p.Case == CasePartial || p.Case == CaseDiverged) && p.LenA != p.LenB {
		return nil, nil, fmt.Errorf("experiments: %s: case %q needs equal lengths, not %d and %d", e.Name, p.Case, p.LenA, p.LenB)
	}
	rng := inputRand(e.Name, p)
	if p.Kind == Suggest || p.Kind == SuggestLoop || p.Case == CaseWords {
		if p.Case != CaseWords || (p.Kind != Suggest && p.Kind != SuggestLoop) {
			return nil, nil, fmt.Errorf("experiments: %s: case %s is for the suggest kinds, and they take it alone (kind %s, case %s)", e.Name, CaseWords, p.Kind, p.Case)
		}
		return typos(rng, p.LenA)
	}
	if p.Kind == Pairs || p.Kind == PeerPairs {
		if p.Case != CaseDNA || p.LenB < 1 {
			return nil, nil, fmt.Errorf("experiments: %s: a many-pairs point takes case %s and a length of at least 1, not %q and %d", e.Name, CaseDNA, p.Case, p.LenB)
		}
		var set []byte
		for i := range p.LenA {
			if i > 0 {
				set = append(set, '\n')
			}
			set = append(set, random(rng, p.LenB+rng.IntN(p.LenB+1), acgt)...)
		}
		return set, nil, nil
	}
	switch p.Case {
	case CaseRandom:
		return random(rng, p.LenA, abcd), random(rng, p.LenB, abcd), nil
	case CaseDNA:
		return random(rng, p.LenA, acgt), random(rng, p.LenB, acgt), nil
	case CaseIdentical:
		a = random(rng, p.LenA, abcd)
		return a, slices.Clone(a), nil
	case CasePartial:
		a = random(rng, p.LenA, abcd)
		return a, substitute(rng, a, partialEdits(p.LenA), abcd), nil
	case CaseDiverged:
		a = random(rng, p.LenA, acgt)
		return a, diverge(rng, a, percentOf(p.LenA, DivergedPercent), acgt), nil
	default: // CaseDifferent
		return random(rng, p.LenA, abcd), random(rng, p.LenB, wxyz), nil
	}
}

// inputRand returns the generator of a point's inputs: PCG seeded with the
// FNV-1a hashes of the experiment name and of the case and lengths.
func inputRand(experiment string, p Point) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(experiment))
	s1 := h.Sum64()
	h.Reset()
	fmt.Fprintf(h, "%s|%d|%d", p.Case, p.LenA, p.LenB)
	return rand.New(rand.NewPCG(s1, h.Sum64()))
}

// random returns n symbols drawn uniformly from alphabet.
func random(rng *rand.Rand, n int, alphabet string) []byte {
	s := make([]byte, n)
	for i := range s {
		s[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return s
}

// partialEdits is the number of substitutions CasePartial makes in n
// symbols: PartialPercent percent, rounded, at least one when n > 0.
func partialEdits(n int) int { return percentOf(n, PartialPercent) }

// percentOf is pc percent of n, rounded, at least one when n > 0.
func percentOf(n, pc int) int {
	k := (n*pc + 50) / 100
	if k == 0 && n > 0 {
		k = 1
	}
	return k
}

// diverge returns s with k distinct positions edited, as CaseDiverged
// says: k/3 followed by an inserted symbol, k/3 deleted, the others
// substituted by another symbol of alphabet (s's symbols must all be in
// it). The result is as long as s; its distance to s is at most k.
func diverge(rng *rand.Rand, s []byte, k int, alphabet string) []byte {
	const (
		keep byte = iota
		subst
		insert
		del
	)
	op := make([]byte, len(s))
	for i, at := range pickPositions(rng, len(s), k) {
		switch {
		case i < k/3:
			op[at] = insert
		case i < 2*(k/3):
			op[at] = del
		default:
			op[at] = subst
		}
	}
	other := func(c byte) byte {
		old := strings.IndexByte(alphabet, c)
		return alphabet[(old+1+rng.IntN(len(alphabet)-1))%len(alphabet)]
	}
	out := make([]byte, 0, len(s))
	for i, c := range s {
		switch op[i] {
		case keep:
			out = append(out, c)
		case subst:
			out = append(out, other(c))
		case insert:
			out = append(out, c, alphabet[rng.IntN(len(alphabet))])
		}
	}
	return out
}

// pickPositions returns k distinct positions of [0, n), drawn uniformly
// in a random order: the first k of a partial Fisher–Yates shuffle.
func pickPositions(rng *rand.Rand, n, k int) []int32 {
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = int32(i)
	}
	for i := range k {
		j := i + rng.IntN(n-i)
		pos[i], pos[j] = pos[j], pos[i]
	}
	return pos[:k]
}

// substitute returns a copy of s with k distinct positions, chosen
// uniformly, each replaced by a different symbol of alphabet (s's symbols
// must all be in alphabet). The distance to s is at most k.
func substitute(rng *rand.Rand, s []byte, k int, alphabet string) []byte {
	out := slices.Clone(s)
	// A partial Fisher–Yates shuffle of the positions picks k distinct ones
	// (drawn in turn with the symbols: pickPositions would draw another
	// sequence, and other inputs than the records were made from).
	pos := make([]int32, len(s))
	for i := range pos {
		pos[i] = int32(i)
	}
	for i := range k {
		j := i + rng.IntN(len(pos)-i)
		pos[i], pos[j] = pos[j], pos[i]
		at := pos[i]
		old := strings.IndexByte(alphabet, out[at])
		out[at] = alphabet[(old+1+rng.IntN(len(alphabet)-1))%len(alphabet)]
	}
	return out
}

// PairSet splits a many-pairs point's input into its strings.
func PairSet(a []byte) [][]byte {
	if len(a) == 0 {
		return nil
	}
	return bytes.Split(a, []byte{'\n'})
}

// typos returns n typos made from words of WordsPath, one a line, and the
// word list itself: each typo is a word drawn at random with one random
// edit (a letter a–z substituted, inserted or deleted, at a random
// place). The error wraps ErrSkipped where the list cannot be read.
func typos(rng *rand.Rand, n int) (typos, words []byte, err error) {
	words, err = os.ReadFile(WordsPath)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: the word list: %w (Debian: apt-get install wamerican)", ErrSkipped, err)
	}
	list := PairSet(bytes.TrimSuffix(words, []byte{'\n'}))
	for i := range n {
		w := []rune(string(list[rng.IntN(len(list))]))
		at := rng.IntN(len(w) + 1)
		letter := rune('a' + rng.IntN(26))
		switch op := rng.IntN(3); {
		case op == 0 && at < len(w):
			w[at] = letter
		case op == 1 && at < len(w) && len(w) > 1:
			w = append(w[:at], w[at+1:]...)
		default:
			w = append(w[:at], append([]rune{letter}, w[at:]...)...)
		}
		if i > 0 {
			typos = append(typos, '\n')
		}
		typos = append(typos, string(w)...)
	}
	return typos, bytes.TrimSuffix(words, []byte{'\n'}), nil
}
