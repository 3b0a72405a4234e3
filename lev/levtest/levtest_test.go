package levtest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/lev"
)

// recursive is the textbook recursion over suffixes, memoised: a second,
// differently written definition to check Reference by.
func recursive(a, b string) int {
	memo := map[[2]int]int{}
	var d func(i, j int) int
	d = func(i, j int) int {
		switch {
		case i == len(a):
			return len(b) - j
		case j == len(b):
			return len(a) - i
		}
		if v, ok := memo[[2]int{i, j}]; ok {
			return v
		}
		v := 1 + min(d(i+1, j), d(i, j+1), d(i+1, j+1))
		if a[i] == b[j] {
			v = min(v, d(i+1, j+1))
		}
		memo[[2]int{i, j}] = v
		return v
	}
	return d(0, 0)
}

// allStrings returns every string over alphabet of length at most n.
func allStrings(alphabet string, n int) []string {
	out := []string{""}
	last := []string{""}
	for range n {
		var next []string
		for _, s := range last {
			for _, c := range []byte(alphabet) {
				next = append(next, s+string(c))
			}
		}
		out = append(out, next...)
		last = next
	}
	return out
}

func TestReferenceExhaustive(t *testing.T) {
	all := allStrings("abc", 4)
	for _, a := range all {
		for _, b := range all {
			want := recursive(a, b)
			if got := Reference([]byte(a), []byte(b)); got != want {
				t.Fatalf("Reference(%q, %q) = %d, want %d", a, b, got, want)
			}
			if got := ReferenceString(a, b); got != want {
				t.Fatalf("ReferenceString(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func TestReferenceKnownAnswers(t *testing.T) {
	for _, k := range knownAnswers {
		if got := Reference([]byte(k.a), []byte(k.b)); got != k.d {
			t.Errorf("Reference(%q, %q) = %d, want %d", k.a, k.b, got, k.d)
		}
		if got := recursive(k.a, k.b); got != k.d {
			t.Errorf("recursive(%q, %q) = %d, want %d", k.a, k.b, got, k.d)
		}
	}
	for _, k := range knownTexts {
		if got := ReferenceString(k.a, k.b); got != k.d {
			t.Errorf("ReferenceString(%q, %q) = %d, want %d", k.a, k.b, got, k.d)
		}
		if got := ReferenceRunes([]rune(k.b), []rune(k.a)); got != k.d {
			t.Errorf("ReferenceRunes(%q, %q) = %d, want %d", k.b, k.a, got, k.d)
		}
	}
}

func TestRandomBytes(t *testing.T) {
	rng := NewRand(t)
	for _, alphabet := range []string{Binary, DNA, Lowercase, AllBytes} {
		s := RandomBytes(rng, 5000, alphabet)
		if len(s) != 5000 {
			t.Fatalf("RandomBytes(5000) has length %d", len(s))
		}
		seen := map[byte]bool{}
		for _, c := range s {
			if !strings.ContainsRune(alphabet, rune(c)) && alphabet != AllBytes {
				t.Fatalf("RandomBytes drew %q, not in %q", c, alphabet)
			}
			seen[c] = true
		}
		if len(seen) != len(alphabet) {
			t.Errorf("5000 draws over %d symbols hit only %d of them", len(alphabet), len(seen))
		}
	}
	if len(AllBytes) != 256 || AllBytes[0] != 0 || AllBytes[255] != 255 {
		t.Errorf("AllBytes is not 0x00…0xff")
	}
}

func TestMutate(t *testing.T) {
	rng := NewRand(t)
	for range 200 {
		s := RandomBytes(rng, rng.IntN(50), DNA)
		keep := bytes.Clone(s)
		k := rng.IntN(10)
		m := Mutate(rng, s, k, DNA)
		if !bytes.Equal(s, keep) {
			t.Fatalf("Mutate changed its input")
		}
		if d := Reference(s, m); d > k {
			t.Fatalf("Mutate(%q, %d) = %q at distance %d", s, k, m, d)
		}
	}
}

func TestRunPattern(t *testing.T) {
	got := runPattern("TestConformance/myers-parallel/options/tile=1+1")
	want := `^TestConformance$/^myers-parallel$/^options$/^tile=1\+1$`
	if got != want {
		t.Errorf("runPattern = %s, want %s", got, want)
	}
}

// validated returns a stand-in for lev that answers with the reference
// after lev has checked the options, and capped as lev caps it: lev's
// answer for an empty string against one of the reference's length, where
// no kernel runs.
func validated() impl {
	return impl{
		bytes: func(a, b []byte, opts ...lev.Option) (int, error) {
			return lev.Distance(nil, make([]byte, Reference(a, b)), opts...)
		},
		text: func(a, b string, opts ...lev.Option) (int, error) {
			return lev.DistanceString("", strings.Repeat("x", ReferenceString(a, b)), opts...)
		},
	}
}

// TestSuiteAcceptsReference runs the suite on a stand-in that answers with
// the reference: a correct implementation must pass every case. The suite
// branches only on Parallel and GPU, so one algorithm of each kind covers
// it.
func TestSuiteAcceptsReference(t *testing.T) {
	seen := map[[2]bool]bool{}
	for _, alg := range lev.Algorithms() {
		kind := [2]bool{alg.Parallel(), alg.GPU()}
		if seen[kind] {
			continue
		}
		seen[kind] = true
		t.Run(alg.String(), func(t *testing.T) {
			if alg.GPU() && cudaext.Available() == nil {
				t.Skip("a GPU is present: lev's own conformance test runs the GPU algorithms")
			}
			run(t, alg, validated(), nil)
		})
	}
}

// brokenEnv selects, in a child process, a deliberately wrong stand-in that
// the suite must reject.
const brokenEnv = "LEVTEST_BROKEN"

var broken = map[string]struct {
	alg  lev.Algorithm
	part string // the sub-test of the suite that must catch it
	make func() impl
	want string // in the child's output
}{
	"off-by-one-past-a-word": {lev.TwoRow, "fixed", func() impl {
		im := validated()
		ref := im.bytes
		im.bytes = func(a, b []byte, opts ...lev.Option) (int, error) {
			d, err := ref(a, b, opts...)
			if len(a) > 64 && len(b) > 64 && bytes.IndexByte(a, 'A') >= 0 {
				d++
			}
			return d, err
		}
		return im
	}, "want"},
	"writes-its-input": {lev.Myers, "properties", func() impl {
		im := validated()
		ref := im.bytes
		im.bytes = func(a, b []byte, opts ...lev.Option) (int, error) {
			d, err := ref(a, b, opts...)
			if len(a) > 100 {
				a[len(a)-1]++
			}
			return d, err
		}
		return im
	}, "changed its inputs"},
	"counts-bytes-of-text": {lev.Diagonal, "text", func() impl {
		im := validated()
		ref := im.bytes
		im.text = func(a, b string, opts ...lev.Option) (int, error) {
			return ref([]byte(a), []byte(b), opts...)
		}
		return im
	}, "DistanceString"},
	"any-workers": {lev.FullMatrix, "options", func() impl {
		return impl{
			bytes: func(a, b []byte, _ ...lev.Option) (int, error) { return Reference(a, b), nil },
			text:  func(a, b string, _ ...lev.Option) (int, error) { return ReferenceString(a, b), nil },
		}
	}, "no error, want one wrapping lev.ErrInvalidOption"},
	"cap-ignored": {lev.Myers, "cap", func() impl {
		im := validated()
		im.bytes = func(a, b []byte, opts ...lev.Option) (int, error) {
			if _, err := lev.Distance(nil, nil, opts...); err != nil {
				return 0, err
			}
			return Reference(a, b), nil // the cap's k+1 never given
		}
		return im
	}, "with max="},
	"wide-runes": {lev.Tiled, "text", func() impl {
		im := validated()
		ref := im.text
		im.text = func(a, b string, opts ...lev.Option) (int, error) {
			d, err := ref(a, b, opts...)
			if distinctRunes(a) > 256 {
				d--
			}
			return d, err
		}
		return im
	}, "CJK"},
}

func distinctRunes(s string) int {
	seen := map[rune]bool{}
	for _, r := range s {
		seen[r] = true
	}
	return len(seen)
}

// TestSuiteRejectsBroken runs the suite, in child processes, on stand-ins
// that are each wrong in one way, and expects it to fail for the right
// reason: a suite that cannot fail proves nothing.
func TestSuiteRejectsBroken(t *testing.T) {
	if name := os.Getenv(brokenEnv); name != "" {
		b, ok := broken[name]
		if !ok {
			t.Fatalf("%s=%q is unknown", brokenEnv, name)
		}
		run(t, b.alg, b.make(), nil)
		return
	}
	if testing.Short() {
		t.Skip("starts a child test process per broken stand-in")
	}
	for name, b := range broken {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestSuiteRejectsBroken$/^"+b.part+"$", "-test.short")
			cmd.Env = append(os.Environ(), brokenEnv+"="+name)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("the suite passed a stand-in that is %s (err %v):\n%s", name, err, out)
			}
			if !strings.Contains(string(out), b.want) {
				t.Errorf("the suite failed on %s, but its output does not say %q:\n%s", name, b.want, out)
			}
			if !strings.Contains(string(out), "replay: "+SeedEnv+"=") {
				t.Errorf("the suite failed on %s without logging how to replay it:\n%s", name, out)
			}
		})
	}
}

func TestShow(t *testing.T) {
	long := strings.Repeat("x", 100)
	if got := show(long); !strings.Contains(got, "100 bytes") || !utf8.ValidString(got) {
		t.Errorf("show(100 bytes) = %q", got)
	}
	if got := show([]byte("ab")); got != fmt.Sprintf("%q", "ab") {
		t.Errorf("show(ab) = %s", got)
	}
}

// TestDiverge: Diverge makes about the edits asked, each one edit, so that
// the distance is at most their number and near it, and nothing at 0‰.
func TestDiverge(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	s := RandomBytes(rng, 20000, DNA)
	if got := Diverge(rng, s, 0, DNA); string(got) != string(s) {
		t.Errorf("0‰ changed the sequence")
	}
	for _, pm := range []int{10, 50, 150} {
		d := Reference(s, Diverge(rng, s, pm, DNA))
		if want := len(s) * pm / 1000; d > want*12/10 || d < want*7/10 {
			t.Errorf("%d‰ of %d symbols: distance %d, want about %d", pm, len(s), d, want)
		}
	}
}
