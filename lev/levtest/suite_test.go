package levtest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/lev"
)

// validated returns a stand-in for alg that answers with the reference
// after lev has checked the options, and capped as lev caps it: lev's
// answer for an empty string against one of the reference's length, where
// no kernel runs.
func validated(alg lev.Algorithm) Impl {
	im := AlgorithmImpl(alg)
	im.Distance = func(a, b []byte, opts ...lev.Option) (int, error) {
		return lev.Distance(nil, make([]byte, Reference(a, b)), opts...)
	}
	im.DistanceString = func(a, b string, opts ...lev.Option) (int, error) {
		return lev.DistanceString("", strings.Repeat("x", ReferenceString(a, b)), opts...)
	}
	return im
}

// TestSuiteAcceptsReference runs the suite on a stand-in that answers with
// the reference: a correct implementation must pass every case. The suite
// branches on Parallel and GPU (for a GPU one, on Tile and WarpBlocks too),
// so one algorithm of each kind of the first two covers most of it.
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
			RunImpl(t, validated(alg))
		})
	}
}

// brokenEnv selects, in a child process, a deliberately wrong stand-in that
// the suite must reject.
const brokenEnv = "LEVTEST_BROKEN"

var broken = map[string]struct {
	alg  lev.Algorithm
	part string          // the sub-test of the suite that must catch it
	make func(Impl) Impl // from validated(alg)
	want string          // in the child's output
}{
	"off-by-one-past-a-word": {lev.TwoRow, "fixed", func(im Impl) Impl {
		ref := im.Distance
		im.Distance = func(a, b []byte, opts ...lev.Option) (int, error) {
			d, err := ref(a, b, opts...)
			if len(a) > 64 && len(b) > 64 && bytes.IndexByte(a, 'A') >= 0 {
				d++
			}
			return d, err
		}
		return im
	}, "want"},
	"writes-its-input": {lev.Myers, "properties", func(im Impl) Impl {
		ref := im.Distance
		im.Distance = func(a, b []byte, opts ...lev.Option) (int, error) {
			d, err := ref(a, b, opts...)
			if len(a) > 100 {
				a[len(a)-1]++
			}
			return d, err
		}
		return im
	}, "changed its inputs"},
	"counts-bytes-of-text": {lev.Diagonal, "text", func(im Impl) Impl {
		ref := im.Distance
		im.DistanceString = func(a, b string, opts ...lev.Option) (int, error) {
			return ref([]byte(a), []byte(b), opts...)
		}
		return im
	}, "DistanceString"},
	"any-workers": {lev.FullMatrix, "options", func(im Impl) Impl {
		im.Distance = func(a, b []byte, _ ...lev.Option) (int, error) { return Reference(a, b), nil }
		im.DistanceString = func(a, b string, _ ...lev.Option) (int, error) { return ReferenceString(a, b), nil }
		return im
	}, "no error, want one wrapping lev.ErrInvalidOption"},
	"cap-ignored": {lev.Myers, "cap", func(im Impl) Impl {
		im.Distance = func(a, b []byte, opts ...lev.Option) (int, error) {
			if _, err := lev.Distance(nil, nil, opts...); err != nil {
				return 0, err
			}
			return Reference(a, b), nil // the cap's k+1 never given
		}
		return im
	}, "with max="},
	"wide-runes": {lev.Tiled, "text", func(im Impl) Impl {
		ref := im.DistanceString
		im.DistanceString = func(a, b string, opts ...lev.Option) (int, error) {
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
		RunImpl(t, b.make(validated(b.alg)))
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
