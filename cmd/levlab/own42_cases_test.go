package main

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/levlab/levlab/lev/levtest"
)

// The case options a program's honest limits ask for: --text keeps to
// printable symbols that are no white space, {a:text} to strings without
// a NUL, --equal-lengths to pairs of one length; each keeps the families
// (known answers, boundaries, long pairs, random over every alphabet).
func TestCaseOptions(t *testing.T) {
	for _, c := range []struct {
		name string
		o    levtest.CaseOptions
		ok   func(a, b []byte) bool
	}{
		{"text", levtest.CaseOptions{Text: true}, func(a, b []byte) bool {
			return !bytes.ContainsFunc(append(a, b...), func(r rune) bool { return r <= ' ' || r > '~' })
		}},
		{"text runes", levtest.CaseOptions{Text: true, Runes: true}, func(a, b []byte) bool {
			return !bytes.ContainsFunc(append(a, b...), func(r rune) bool { return r == ' ' || !unicode.IsPrint(r) })
		}},
		{"no NUL", levtest.CaseOptions{NoNUL: true}, func(a, b []byte) bool { return bytes.IndexByte(a, 0) < 0 && bytes.IndexByte(b, 0) < 0 }},
		{"equal lengths", levtest.CaseOptions{EqualLengths: true}, func(a, b []byte) bool { return len(a) == len(b) }},
		{"equal lengths in runes", levtest.CaseOptions{EqualLengths: true, Runes: true}, func(a, b []byte) bool { return utf8.RuneCount(a) == utf8.RuneCount(b) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.o.N, c.o.MaxLen = 600, 2600
			cases := levtest.Cases(rand.New(rand.NewPCG(1, 2)), c.o)
			if len(cases) != 600 {
				t.Errorf("%d cases, want 600", len(cases))
			}
			families := map[string]int{}
			for _, k := range cases {
				if !c.ok(k.A, k.B) {
					t.Fatalf("%s: %q vs %q is not kept out", k.Name, short(k.A), short(k.B))
				}
				want := levtest.Reference(k.A, k.B)
				if c.o.Runes {
					want = levtest.ReferenceString(string(k.A), string(k.B))
				}
				if k.Want != want {
					t.Errorf("%s: Want %d, the reference says %d", k.Name, k.Want, want)
				}
				families[k.Family]++
			}
			for _, f := range []string{"known answers", "length boundaries", "long"} {
				if families[f] == 0 {
					t.Errorf("no case of family %q; families %v", f, families)
				}
			}
			if n := len(families); n < 7 {
				t.Errorf("%d families, want known, boundaries, long and four random ones: %v", n, families)
			}
		})
	}
	// Without the options every byte is there, NUL and line ends too.
	all := levtest.Cases(rand.New(rand.NewPCG(1, 2)), levtest.CaseOptions{N: 600, MaxLen: 2600})
	nul := false
	for _, k := range all {
		nul = nul || bytes.IndexByte(k.A, 0) >= 0
	}
	if !nul {
		t.Error("no case holds a NUL without the options")
	}
}

func short(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}
