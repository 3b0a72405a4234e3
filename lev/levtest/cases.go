package levtest

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/levlab/levlab/lev"
)

// A Case is one input pair of the conformance suite and its distance, for
// an implementation that is no Go function taking lev's options: another
// program (levlab verify), a peer.
type Case struct {
	Name   string // what it tests, e.g. "random 4097 vs 4096 over ACGT"
	Family string // the family it is made in: FamilyKnown, FamilyBoundaries, FamilyLong, or FamilyRandom and its alphabet
	A, B   []byte
	Runes  bool // A and B are valid UTF-8, counted in runes; else bytes
	Want   int
}

// The families of cases, in the order Cases makes them: the known answers;
// the length boundaries (each length's constructed cases and random pairs
// of it); the long pairs, past 1,001 symbols; random pairs up to 299
// symbols, a family an alphabet (FamilyRandom and its name, as "random
// over ACGT").
const (
	FamilyKnown      = "known answers"
	FamilyBoundaries = "length boundaries"
	FamilyLong       = "long"
	FamilyRandom     = "random over "
)

// randomAlphabets names the alphabets of the random pairs but the last,
// the byte values the options keep (caseBuilder.allSymbols).
var randomAlphabets = []string{"a, b", "ACGT", "a–z"}

// FamilyRank orders families as Cases makes them, random pairs by the
// size of their alphabet.
func FamilyRank(family string) int {
	switch family {
	case FamilyKnown:
		return 0
	case FamilyBoundaries:
		return 1
	case FamilyLong:
		return 2
	}
	for i, over := range randomAlphabets {
		if family == FamilyRandom+over {
			return 3 + i
		}
	}
	return 6
}

// Size is the case's two lengths together, in bytes: the order in which
// failures are worth reading, smallest first.
func (c Case) Size() int { return len(c.A) + len(c.B) }

// CaseOptions says which cases Cases makes.
type CaseOptions struct {
	// N is how many cases at most; 0 means 1000. The fixed cases come
	// first, then the long ones, then random pairs up to N.
	N int
	// MaxLen is the longest string of any case, in symbols (bytes, or
	// runes with Runes); 0 means 20,000. The long cases go up to it; one
	// below the boundary lengths' 1,001 or the random pairs' 299 leaves
	// out what is longer, for a program that takes strings up to a
	// length of its own.
	MaxLen int
	// Runes makes text cases (valid UTF-8, counted in runes) instead of
	// byte cases.
	Runes bool
	// ASCII keeps the cases whose strings are ASCII alone: for an
	// implementation that counts runes, asked the bytes question.
	ASCII bool
	// Text keeps to printable symbols that are no white space: no NUL, no
	// line end, no blank, no control byte (with Runes, printable runes
	// but the space), for a program that reads its strings as words or
	// lines. The random alphabet of 256 bytes becomes the 94 printable
	// ASCII symbols.
	Text bool
	// NoNUL leaves out every string holding a NUL byte, which no argument
	// of a command can carry; the 256 bytes become the 255 others.
	NoNUL bool
	// EqualLengths keeps to pairs of strings of one length (in symbols),
	// for a program that takes no other.
	EqualLengths bool
}

// Cases returns the suite's cases as data, drawn with rng:
//
//   - known answers (kitten/sitting, empty strings, all 256 byte values…),
//     and with Runes the suite's Unicode ones (accents, CJK, emoji);
//   - answers known by construction (equal, one substitution, insertion or
//     deletion at either end and the middle, a^n vs b^n, a prefix cut off)
//     at the word boundaries 1, 2, 63–65, 127–129, 191–193 and 999–1001;
//   - long pairs around the sizes where parallel code splits its work —
//     powers of two ±1 and multiples of common tile sides (100, 128, 256,
//     500, 512, 1000, 1024) ±1, past 2000 and up to MaxLen — random, and
//     an edit in the middle, at the end and at the start;
//   - random pairs of unequal lengths (up to 300) over alphabets of 2, 4,
//     26 and 256 symbols (or runes).
//
// Every Want is the distance: by construction, or computed by Reference
// (and, past a few million cells, by lev's Myers, itself checked against
// Reference by the suite). Cases are in the order above; a caller sorts by
// Size to read the smallest failure first.
func Cases(rng *rand.Rand, o CaseOptions) []Case {
	cases, _ := CasesContext(context.Background(), rng, o)
	return cases
}

// CasesContext is Cases under ctx: once ctx is done it stops making cases
// (a long case's exact distance stops part-way) and returns ctx's error.
func CasesContext(ctx context.Context, rng *rand.Rand, o CaseOptions) ([]Case, error) {
	n := cmp.Or(o.N, 1000)
	maxLen := cmp.Or(o.MaxLen, 20000)
	b := caseBuilder{ctx: ctx, runes: o.Runes, ascii: o.ASCII, text: o.Text, noNUL: o.NoNUL || o.Text, equal: o.EqualLengths, max: n, maxLen: maxLen}
	b.family = FamilyKnown
	b.known()
	b.family = FamilyBoundaries
	b.boundaries(rng)
	b.family = FamilyLong
	b.long(rng, maxLen)
	for len(b.out) < n && ctx.Err() == nil {
		b.random(rng)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return b.out, nil
}

type caseBuilder struct {
	ctx          context.Context
	runes, ascii bool
	text, noNUL  bool // CaseOptions' Text and NoNUL
	equal        bool // CaseOptions.EqualLengths
	max          int
	maxLen       int    // CaseOptions.MaxLen
	family       string // of the cases added now
	out          []Case
}

// keeps reports whether the options keep a case of strings x and y.
func (b *caseBuilder) keeps(x, y []byte) bool {
	switch {
	case b.runes && (!utf8.Valid(x) || !utf8.Valid(y)), b.ascii && (!isASCII(x) || !isASCII(y)):
		return false
	case b.text && (!b.isText(x) || !b.isText(y)):
		return false
	case b.noNUL && (slices.Contains(x, 0) || slices.Contains(y, 0)):
		return false
	case b.equal && b.count(x) != b.count(y):
		return false
	case b.count(x) > b.maxLen || b.count(y) > b.maxLen:
		return false
	}
	return true
}

// isText reports whether s holds printable symbols alone, none of them
// white space: bytes 0x21 to 0x7e, or with runes printable runes but the
// space.
func (b *caseBuilder) isText(s []byte) bool {
	if !b.runes {
		for _, c := range s {
			if c <= ' ' || c > '~' {
				return false
			}
		}
		return true
	}
	for _, r := range string(s) {
		if r == ' ' || !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// count is the length of s in symbols: bytes, or with runes runes.
func (b *caseBuilder) count(s []byte) int {
	if b.runes {
		return utf8.RuneCount(s)
	}
	return len(s)
}

// allSymbols returns the byte alphabet of 256 symbols as the options
// keep it — every byte, the 255 but NUL, or the 94 printable ones — and
// its name.
func (b *caseBuilder) allSymbols() ([]byte, string) {
	switch {
	case b.text:
		return []byte(printable), "94 printable symbols"
	case b.noNUL:
		return []byte(AllBytes[1:]), "255 symbols (no NUL)"
	}
	return []byte(AllBytes), "256 symbols"
}

// printable is the printable ASCII symbols but the space, 0x21 to 0x7e.
var printable = func() string {
	var s []byte
	for c := byte('!'); c <= '~'; c++ {
		s = append(s, c)
	}
	return string(s)
}()

// add appends a case whose distance is want, or, with want < 0, computed.
// Once the builder's context is done it adds nothing.
func (b *caseBuilder) add(name string, x, y []byte, want int) {
	if len(b.out) >= b.max || b.ctx.Err() != nil {
		return
	}
	if !b.keeps(x, y) {
		return
	}
	if want < 0 {
		var err error
		if want, err = exact(b.ctx, x, y, b.runes); err != nil {
			return // the context is done
		}
	}
	b.out = append(b.out, Case{Name: name, Family: b.family, A: x, B: y, Runes: b.runes, Want: want})
}

// exact is the distance of x and y: Reference up to a few million cells,
// then lev's Myers.
// Its only error is ctx's.
func exact(ctx context.Context, x, y []byte, runes bool) (int, error) {
	var d int
	var err error
	switch {
	case runes && utf8.RuneCount(x)*utf8.RuneCount(y) <= 4<<20:
		return ReferenceString(string(x), string(y)), nil
	case runes:
		d, err = lev.DistanceString(string(x), string(y), lev.WithAlgorithm(lev.Myers), lev.WithContext(ctx))
	case len(x)*len(y) <= 4<<20:
		return Reference(x, y), nil
	default:
		d, err = lev.Distance(x, y, lev.WithAlgorithm(lev.Myers), lev.WithContext(ctx))
	}
	if err != nil && ctx.Err() == nil {
		panic(fmt.Sprintf("levtest: the distance of a case: %v", err)) // valid inputs, valid options
	}
	return d, err
}

func isASCII(s []byte) bool {
	for _, c := range s {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// RunCases runs the cases o asks for through distance, an implementation
// that is no lev algorithm (a peer, a binding, another program), as gonum's
// testblas takes a backend: each answer must be the case's Want. It reports
// the ten smallest failures, smallest first, and how many there were.
func RunCases(t *testing.T, distance func(a, b []byte) (int, error), o CaseOptions) {
	t.Helper()
	cases := Cases(NewRand(t), o)
	_, fails := Check(context.Background(), cases, Answer(func(_ context.Context, a, b []byte) (int, error) { return distance(a, b) }), 0)
	for _, f := range fails[:min(len(fails), 10)] {
		t.Errorf("%s (%d and %d bytes): %s", f.Case.Name, len(f.Case.A), len(f.Case.B), f.Why)
	}
	if len(fails) > 10 {
		t.Errorf("and %d more of the %d cases", len(fails)-10, len(cases))
	}
}

// A Failure is a case an implementation got wrong, and how.
type Failure struct {
	Case Case
	Why  string // "answered 5, want 4", or why there is no answer
}

// Check runs cases through check, smallest first (Size), and returns how
// many ran and those that failed, in that order: check returns why a case
// failed, or "". It stops after maxFail failures (0: never) and, leaving
// the case it was in uncounted, when ctx is done.
func Check(ctx context.Context, cases []Case, check func(context.Context, Case) string, maxFail int) (ran int, fails []Failure) {
	return CheckJobs(ctx, cases, 1, func(int) func(context.Context, Case) string { return check }, maxFail)
}

// CheckJobs is Check with up to jobs cases in flight at once, job j's
// check made by newCheck(j) (its own files, say). The cases start
// smallest first; the failures come back in that order whatever order the
// jobs finish in. No case starts once maxFail have failed (the failures
// of those in flight are kept).
func CheckJobs(ctx context.Context, cases []Case, jobs int, newCheck func(job int) func(context.Context, Case) string, maxFail int) (ran int, fails []Failure) {
	cases = slices.Clone(cases)
	slices.SortStableFunc(cases, func(x, y Case) int { return cmp.Compare(x.Size(), y.Size()) })
	jobs = max(1, min(jobs, len(cases)))
	why := make([]string, len(cases))
	done := make([]bool, len(cases))
	var (
		mu     sync.Mutex
		next   int
		failed int
		wg     sync.WaitGroup
	)
	for j := range jobs {
		check := newCheck(j)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				if i >= len(cases) || ctx.Err() != nil || (maxFail > 0 && failed >= maxFail) {
					mu.Unlock()
					return
				}
				next++
				mu.Unlock()
				w := check(ctx, cases[i])
				if ctx.Err() != nil {
					return
				}
				mu.Lock()
				why[i], done[i] = w, true
				if w != "" {
					failed++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for i, c := range cases {
		if !done[i] {
			continue
		}
		ran++
		if why[i] != "" {
			fails = append(fails, Failure{c, why[i]})
		}
	}
	return ran, fails
}

// Answer makes a check for Check of a distance function: a case fails
// where it errs or answers other than Want.
func Answer(distance func(ctx context.Context, a, b []byte) (int, error)) func(context.Context, Case) string {
	return func(ctx context.Context, c Case) string {
		d, err := distance(ctx, c.A, c.B)
		switch {
		case err != nil:
			return err.Error()
		case d != c.Want:
			return fmt.Sprintf("answered %d, want %d", d, c.Want)
		}
		return ""
	}
}

func (b *caseBuilder) known() {
	for _, k := range knownAnswers {
		b.add(fmt.Sprintf("known: %q vs %q", k.a, k.b), []byte(k.a), []byte(k.b), k.d)
	}
	if b.runes {
		for _, k := range knownTexts {
			b.add(fmt.Sprintf("known text: %q vs %q", k.a, k.b), []byte(k.a), []byte(k.b), k.d)
		}
	} else {
		all, name := b.allSymbols()
		name = strings.Replace(name, " symbols", " byte values", 1)
		if !b.text && !b.noNUL {
			name = "all " + name
		} else {
			name = "the " + name
		}
		b.add(name+" vs rotated by one", all, append(slices.Clone(all[1:]), all[0]), 2)
		b.add(name+" vs reversed", all, reversed(all), -1)
	}
}

// alphabet returns the symbols of the byte or rune alphabet i (0..3) as
// the pieces a string is made of.
func (b *caseBuilder) alphabet(i int) [][]byte {
	if b.runes {
		set := [][]rune{runeRange('a', 'b'), []rune("ACGT"), runeRange('a', 'z'), mixedRunes()}[i]
		out := make([][]byte, len(set))
		for j, r := range set {
			out[j] = utf8.AppendRune(nil, r)
		}
		return out
	}
	all, _ := b.allSymbols()
	set := []string{Binary, DNA, Lowercase, string(all)}[i]
	out := make([][]byte, len(set))
	for j := range set {
		out[j] = []byte{set[j]}
	}
	return out
}

// randomText returns n symbols of alphabet i drawn at random.
func (b *caseBuilder) randomText(rng *rand.Rand, n, i int) []byte {
	syms := b.alphabet(i)
	var out []byte
	for range n {
		out = append(out, syms[rng.IntN(len(syms))]...)
	}
	return out
}

// symbols cuts s into its symbols: bytes, or with runes its runes.
func (b *caseBuilder) symbols(s []byte) [][]byte {
	var out [][]byte
	for len(s) > 0 {
		size := 1
		if b.runes {
			_, size = utf8.DecodeRune(s)
		}
		out, s = append(out, s[:size]), s[size:]
	}
	return out
}

// constructed adds the cases whose answer is known by construction for a
// random string a of n symbols over DNA (x is in no case's alphabet).
func (b *caseBuilder) constructed(rng *rand.Rand, n int, what string) {
	a := b.randomText(rng, n, 1)
	syms := b.symbols(a)
	join := func(parts ...[][]byte) []byte { return slices.Concat(slices.Concat(parts...)...) }
	x := [][]byte{[]byte("x")}
	b.add(what+": equal", a, slices.Clone(a), 0)
	b.add(what+": vs empty", a, nil, n)
	b.add(what+": empty vs it", nil, a, n)
	b.add(what+": a^n vs b^n", repeat("a", n), repeat("b", n), n)
	// The first, middle and last positions: one position at n = 1, two at
	// n = 2, so that no case is added twice.
	for _, i := range slices.Compact([]int{0, n / 2, n - 1}) {
		b.add(fmt.Sprintf("%s: substitution at %d", what, i), a, join(syms[:i], x, syms[i+1:]), 1)
		b.add(fmt.Sprintf("%s: deletion at %d", what, i), a, join(syms[:i], syms[i+1:]), 1)
		b.add(fmt.Sprintf("%s: insertion at %d", what, i), join(syms[:i], x, syms[i:]), a, 1)
	}
	if k := min(64, n/2); k > 0 {
		b.add(fmt.Sprintf("%s: without its first %d", what, k), a, join(syms[k:]), k)
		b.add(fmt.Sprintf("%s: without its last %d", what, k), join(syms[:n-k]), a, k)
	}
}

func (b *caseBuilder) boundaries(rng *rand.Rand) {
	for _, n := range boundaryLengths {
		b.constructed(rng, n, fmt.Sprintf("length %d", n))
		for _, m := range []int{n - 1, n, n + 1} {
			b.add(fmt.Sprintf("random %d vs %d over ACGT", n, m), b.randomText(rng, n, 1), b.randomText(rng, m, 1), -1)
		}
	}
}

// longLengths returns the lengths past 1001 and up to maxLen where
// parallel code most often goes wrong: powers of two and multiples of
// common tile sides, each ±1, ascending.
func longLengths(maxLen int) []int {
	var ns []int
	for p := 2048; p <= maxLen+1; p *= 2 {
		ns = append(ns, p-1, p, p+1)
	}
	for _, t := range []int{100, 128, 256, 500, 512, 1000, 1024} {
		m := t * (2000/t + 1) // the first multiple past the boundary lengths
		ns = append(ns, m-1, m, m+1)
	}
	ns = append(ns, maxLen-1, maxLen)
	slices.Sort(ns)
	ns = slices.Compact(ns)
	return slices.DeleteFunc(ns, func(n int) bool { return n <= 1001 || n > maxLen })
}

// long adds, at each long length, a random pair, and at every third one
// an edit in the middle, at the end and at the start: a few cases each,
// since a program under test may take O(n²) for each.
func (b *caseBuilder) long(rng *rand.Rand, maxLen int) {
	for i, n := range longLengths(maxLen) {
		if b.ctx.Err() != nil || len(b.out) >= b.max {
			return
		}
		a := b.randomText(rng, n, 1)
		if i%3 == 0 {
			syms := b.symbols(a)
			b.add(fmt.Sprintf("long %d: substitution at %d", n, n/2), a, slices.Concat(slices.Concat(syms[:n/2]...), []byte("x"), slices.Concat(syms[n/2+1:]...)), 1)
			b.add(fmt.Sprintf("long %d: deletion at the end", n), a, slices.Concat(syms[:n-1]...), 1)
			b.add(fmt.Sprintf("long %d: insertion at the start", n), slices.Concat([]byte("x"), a), a, 1)
		}
		m := n - 1 + i%3
		if b.equal {
			m = n
		}
		b.add(fmt.Sprintf("random %d vs %d over ACGT", n, m), a, b.randomText(rng, m, 1), -1)
	}
}

func (b *caseBuilder) random(rng *rand.Rand) {
	i := rng.IntN(4)
	if b.ascii {
		i = rng.IntN(3)
	}
	// Up to 299 symbols, or MaxLen where it is less.
	n := min(300, b.maxLen+1)
	la, lb := rng.IntN(n), rng.IntN(n)
	if b.equal {
		lb = la
	}
	_, all := b.allSymbols()
	names := append(slices.Clone(randomAlphabets), all)
	b.family = FamilyRandom + names[i]
	b.add(fmt.Sprintf("random %d vs %d over %s", la, lb, names[i]), b.randomText(rng, la, i), b.randomText(rng, lb, i), -1)
}
