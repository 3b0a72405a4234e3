package levtest

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

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
