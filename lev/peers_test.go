package lev_test

import (
	"strings"
	"testing"

	agnivade "github.com/agnivade/levenshtein"
	kaweihe "github.com/ka-weihe/fast-levenshtein"

	"github.com/levlab/levlab/lev/levtest"
)

// The peers that BenchmarkDistance sets beside lev's algorithms. Both count
// runes, so on ASCII they answer the byte question too.
//
//   - agnivade: github.com/agnivade/levenshtein v1.2.2,
//     ComputeDistance(a, b string) int. One-row DP over runes after trimming
//     the common prefix and suffix.
//   - ka-weihe: github.com/ka-weihe/fast-levenshtein
//     v0.0.0-20201227151214-4c99ee36a1ba, Distance(a, b string) int.
//     Bit-parallel Myers over runes, with a global 65536-entry table: not
//     safe for concurrent use (its README says so), so no test here calls it
//     from two goroutines.
var peers = []struct {
	name     string
	distance func(a, b string) int
}{
	{"agnivade", agnivade.ComputeDistance},
	{"ka-weihe", kaweihe.Distance},
}

// TestPeersAgreeWithReference checks the peers on random inputs where they
// are meant to work: ASCII of any length, and non-empty text in the Basic
// Multilingual Plane. A benchmark of a wrong peer would compare nothing.
func TestPeersAgreeWithReference(t *testing.T) {
	rng := levtest.NewRand(t)
	var pairs [][2]string
	lengths := []int{0, 1, 2, 63, 64, 65, 127, 128, 129, 200, 1000}
	for _, alphabet := range []string{levtest.Binary, levtest.DNA, levtest.Lowercase} {
		for _, la := range lengths {
			for _, lb := range lengths {
				a := levtest.RandomBytes(rng, la, alphabet)
				pairs = append(pairs,
					[2]string{string(a), string(levtest.RandomBytes(rng, lb, alphabet))},
					[2]string{string(a), string(levtest.Mutate(rng, a, 3, alphabet))})
			}
		}
	}
	long := levtest.RandomBytes(rng, 5000, levtest.DNA)
	pairs = append(pairs,
		[2]string{string(long), string(levtest.Mutate(rng, long, 100, levtest.DNA))},
		[2]string{string(long[:70]), string(long)},
		[2]string{"héllo", "hello"}, [2]string{"日本語", "hello"}, [2]string{"naïve", "naive"})
	// Text of two- and three-byte runes, none of them empty.
	bmp := []rune("aé日本語κόσμε")
	for range 50 {
		a := make([]rune, 1+rng.IntN(150))
		b := make([]rune, 1+rng.IntN(150))
		for i := range a {
			a[i] = bmp[rng.IntN(len(bmp))]
		}
		for i := range b {
			b[i] = bmp[rng.IntN(len(bmp))]
		}
		pairs = append(pairs, [2]string{string(a), string(b)})
	}

	for _, in := range pairs {
		want := levtest.ReferenceString(in[0], in[1])
		for _, p := range peers {
			if got := p.distance(in[0], in[1]); got != want {
				t.Errorf("%s(%.20q…(%d bytes), %.20q…(%d bytes)) = %d, want %d", p.name, in[0], len(in[0]), in[1], len(in[1]), got, want)
			}
		}
	}
}

// TestPeerKnownDefects records where ka-weihe is wrong, so that nobody
// benchmarks it there by mistake, and so that a fixed version shows up as a
// failure here: update the notes above and this test then.
func TestPeerKnownDefects(t *testing.T) {
	// Against an empty string it returns the other's length in bytes, not
	// in runes.
	if got := kaweihe.Distance("", "日本語"); got != 9 {
		t.Errorf(`ka-weihe Distance("", "日本語") = %d; it was 9 (bytes, want 3 runes): the defect is gone`, got)
	}
	if got := kaweihe.Distance("héllo", ""); got != 6 {
		t.Errorf(`ka-weihe Distance("héllo", "") = %d; it was 6 (bytes, want 5 runes): the defect is gone`, got)
	}
	// A rune above U+FFFF indexes past its table and panics.
	for _, in := range [][2]string{{"😀", "x"}, {"x", "😀"}, {strings.Repeat("a", 70) + "😀", strings.Repeat("b", 80)}} {
		panicked := func() (p bool) {
			defer func() { p = recover() != nil }()
			kaweihe.Distance(in[0], in[1])
			return false
		}()
		if !panicked {
			t.Errorf("ka-weihe Distance(%.12q, %.12q) no longer panics on a rune above U+FFFF: the defect is gone", in[0], in[1])
		}
	}
	// agnivade has none known: it gets right what ka-weihe gets wrong.
	for _, in := range []struct {
		a, b string
		want int
	}{{"", "日本語", 3}, {"héllo", "", 5}, {"😀", "x", 1}, {"x😀y", "xy", 1}} {
		if got := agnivade.ComputeDistance(in.a, in.b); got != in.want {
			t.Errorf("agnivade ComputeDistance(%q, %q) = %d, want %d", in.a, in.b, got, in.want)
		}
	}
}
