package lev

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomPassInput returns a table, n columns of eight lanes' codes below wordCodes and
// the two delta bytes of each column, from seed.
func randomPassInput(rng *rand.Rand, n int) (table [wordCodes]uint64, codes, hp, hm []uint8) {
	for c := 1; c < wordCodes; c++ {
		table[c] = rng.Uint64()
	}
	codes = make([]uint8, n*wordLaneCount)
	for i := range codes {
		codes[i] = uint8(rng.IntN(wordCodes))
	}
	hp, hm = make([]uint8, n), make([]uint8, n)
	for j := range n {
		// A lane's delta is +1, −1 or 0, never both.
		p, m := uint8(rng.Uint32()), uint8(rng.Uint32())
		hp[j], hm[j] = p, m&^p
	}
	return
}

// sameDeltas fails t at the first column where the vector pass's deltas
// (hp, hm) differ from the Go twin's (gp, gm), what the case was first.
func sameDeltas(t *testing.T, hp, hm, gp, gm []uint8, format string, args ...any) {
	t.Helper()
	for j := range hp {
		if hp[j] != gp[j] || hm[j] != gm[j] {
			t.Fatalf("%s: column %d: AVX-512 %08b/%08b, Go %08b/%08b", fmt.Sprintf(format, args...), j, hp[j], hm[j], gp[j], gm[j])
		}
	}
}

// FuzzWordPass: the AVX-512 word pass and its Go twin agree bit for bit,
// for any table, codes, incoming deltas and row.
func FuzzWordPass(f *testing.F) {
	if !useWordPassAVX512 {
		f.Skip("no AVX-512 F and DQ: only the Go twin runs")
	}
	f.Add(uint64(1), 1, uint8(63))
	f.Add(uint64(2), 100, uint8(0))
	f.Add(uint64(3), 1000, uint8(17))
	f.Fuzz(func(t *testing.T, seed uint64, n int, bit uint8) {
		n = 1 + int(uint(n)%3000)
		bit %= 64
		rng := rand.New(rand.NewPCG(seed, 7))
		table, codes, hp, hm := randomPassInput(rng, n)
		gp, gm := append([]uint8(nil), hp...), append([]uint8(nil), hm...)
		wordPassGo(&table, codes, gp, gm, uint(bit))
		wordPassAVX512(&table, &codes[0], &hp[0], &hm[0], n, uint64(1)<<bit)
		sameDeltas(t, hp, hm, gp, gm, "seed %d, n %d, bit %d", seed, n, bit)
	})
}

// TestWordLanes: wordLanes' distances are the full matrix's, for texts
// of unequal lengths (empty ones too), groups of fewer than eight, and
// patterns of one word to several, on the Go passes, the AVX-512 ones and
// (three words at a time) the VBMI2 one.
func TestWordLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	str := func(n int) []uint8 {
		s := make([]uint8, n)
		for i := range s {
			s[i] = "ACGT"[rng.IntN(4)]
		}
		return s
	}
	lens := []int{0, 1, 2, 63, 64, 65, 127, 128, 129, 500, 777, 1000, 1300}
	savedVec, savedVBMI2 := useWordPassAVX512, useWordPassVBMI2
	defer func() { useWordPassAVX512, useWordPassVBMI2 = savedVec, savedVBMI2 }()
	for _, mode := range []struct{ vec, vbmi2 bool }{{false, false}, {true, false}, {true, true}} {
		if mode.vec && !savedVec || mode.vbmi2 && !savedVBMI2 {
			continue
		}
		useWordPassAVX512, useWordPassVBMI2 = mode.vec, mode.vbmi2
		for it := range 40 {
			p := str(lens[rng.IntN(len(lens))])
			var ts [][]uint8
			for range 1 + rng.IntN(3*wordLaneCount) {
				ts = append(ts, str(lens[rng.IntN(len(lens))]))
			}
			wa, ok := newWordAlphabet([][]uint8{p}, ts)
			if !ok {
				t.Fatal("ACGT: more than seven symbols")
			}
			// Windows of one group, of two, and of all the texts.
			window := []int{wordLaneCount, 2 * wordLaneCount, (len(ts) + 7) / 8 * 8}[it%3]
			wp, gs := newWordPattern(wa, p), wordGroups(wa, ts, window)
			seen := make([]bool, len(ts))
			for gi, g := range gs {
				var st wordState
				var out [wordLaneCount]int
				wordLanes(wp, &g, &st, &out)
				for l := range g.texts {
					j := g.js[l]
					if w := j / window; gi < w*window/wordLaneCount {
						t.Fatalf("it %d: target %d of window %d in group %d, before the window's first", it, j, w, gi)
					}
					if l > 0 && g.lens[l] < g.lens[l-1] {
						t.Fatalf("it %d: group %d not in order of length: %v", it, gi, g.lens[:g.texts])
					}
					seen[j] = true
					if want := dpReference(p, ts[j]); out[l] != want {
						t.Fatalf("mode %+v, it %d: target %d, pattern of %d, text of %d: %d, want %d", mode, it, j, len(p), len(ts[j]), out[l], want)
					}
				}
			}
			if i := slices.Index(seen, false); i >= 0 {
				t.Fatalf("it %d: target %d in no group", it, i)
			}
		}
	}
}

// An alphabet of more than seven symbols is refused.
func TestWordAlphabetTooMany(t *testing.T) {
	if _, ok := newWordAlphabet([][]uint8{[]uint8("ABCDEFG")}); !ok {
		t.Error("seven symbols refused")
	}
	if _, ok := newWordAlphabet([][]uint8{[]uint8("ABCD")}, [][]uint8{[]uint8("EFGH")}); ok {
		t.Error("eight symbols taken")
	}
}

// FuzzWordPasses: the two- and three-word AVX-512 passes and as many Go
// passes agree bit for bit, the last word's out at row bit, the others'
// at row 63.
func FuzzWordPasses(f *testing.F) {
	if !useWordPassAVX512 {
		f.Skip("no AVX-512 F and DQ: only the Go twin runs")
	}
	f.Add(uint64(1), 1, uint8(63), false)
	f.Add(uint64(2), 2, uint8(5), false)
	f.Add(uint64(3), 1000, uint8(40), false)
	f.Add(uint64(4), 1, uint8(63), true)
	f.Add(uint64(5), 2, uint8(5), true)
	f.Add(uint64(6), 3, uint8(0), true)
	f.Add(uint64(7), 1000, uint8(40), true)
	f.Fuzz(func(t *testing.T, seed uint64, n int, bit uint8, three bool) {
		n = 1 + int(uint(n)%3000)
		bit %= 64
		rng := rand.New(rand.NewPCG(seed, 9))
		ta, codes, hp, hm := randomPassInput(rng, n)
		tb, _, _, _ := randomPassInput(rng, 1)
		tc, _, _, _ := randomPassInput(rng, 1)
		tables := []*[wordCodes]uint64{&ta, &tb}
		if three {
			tables = append(tables, &tc)
		}
		gp, gm := append([]uint8(nil), hp...), append([]uint8(nil), hm...)
		for w, tw := range tables {
			row := uint(wordBits - 1)
			if w == len(tables)-1 {
				row = uint(bit)
			}
			wordPassGo(tw, codes, gp, gm, row)
		}
		const top = 1 << (wordBits - 1)
		if three {
			vp, vm := append([]uint8(nil), hp...), append([]uint8(nil), hm...)
			wordPass3AVX512(&ta, &tb, &tc, &codes[0], &hp[0], &hm[0], n, top, top, uint64(1)<<bit)
			if useWordPassVBMI2 {
				wordPass3VBMI2(&ta, &tb, &tc, &codes[0], &vp[0], &vm[0], n, top, top, uint64(1)<<bit)
				sameDeltas(t, vp, vm, gp, gm, "VBMI2: seed %d, n %d, bit %d", seed, n, bit)
			}
		} else {
			wordPass2AVX512(&ta, &tb, &codes[0], &hp[0], &hm[0], n, top, uint64(1)<<bit)
		}
		sameDeltas(t, hp, hm, gp, gm, "seed %d, n %d, bit %d, three %v", seed, n, bit, three)
	})
}
