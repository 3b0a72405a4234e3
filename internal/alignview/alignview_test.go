package alignview

import (
	"strings"
	"testing"
)

func TestBlocks(t *testing.T) {
	// kitten → sitting, two columns a block: the positions run on, a
	// block of b alone keeps a's last position.
	edits, err := ParseCIGAR("1X3=1X1=1D")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Blocks(Bytes([]byte("kitten")), Bytes([]byte("sitting")), edits, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		top, mid, bot  string
		fa, la, fb, lb int
	}{
		{"ki", ".|", "si", 1, 2, 1, 2},
		{"tt", "||", "tt", 3, 4, 3, 4},
		{"en", ".|", "in", 5, 6, 5, 6},
		{"-", "", "g", 6, 6, 7, 7},
	}
	if len(got) != len(want) {
		t.Fatalf("%d blocks, want %d", len(got), len(want))
	}
	for i, w := range want {
		top, mid, bot := got[i].Lines()
		b := got[i]
		if top != w.top || mid != w.mid || bot != w.bot || b.FirstA != w.fa || b.LastA != w.la || b.FirstB != w.fb || b.LastB != w.lb {
			t.Errorf("block %d: %q %q %q a %d–%d b %d–%d; want %+v", i, top, mid, bot, b.FirstA, b.LastA, b.FirstB, b.LastB, w)
		}
	}
}

func TestCells(t *testing.T) {
	for _, c := range []struct {
		got  []Cell
		want []Cell
	}{
		{Bytes([]byte("a\x00\xff~")), []Cell{{'a', "a", 1}, {0, "·", 1}, {0xff, "·", 1}, {'~', "~", 1}}},
		{Runes("日a\u0301\t"), []Cell{{'日', "日", 2}, {'a', "a", 1}, {0x301, "·", 1}, {'\t', "·", 1}}},
	} {
		if len(c.got) != len(c.want) {
			t.Fatalf("%v, want %v", c.got, c.want)
		}
		for i := range c.got {
			if c.got[i] != c.want[i] {
				t.Errorf("cell %d: %v, want %v", i, c.got[i], c.want[i])
			}
		}
	}
	// A wide symbol beside a narrow one: the narrow one and the mark are
	// padded to two columns.
	bl, err := Blocks(Runes("日x"), Runes("本x"), []Edit{{Subst, 1}, {Match, 1}}, 60)
	if err != nil {
		t.Fatal(err)
	}
	top, mid, bot := bl[0].Lines()
	if top != "日x" || mid != ". |" || bot != "本x" {
		t.Errorf("wide: %q %q %q", top, mid, bot)
	}
}

// TestBlocksRefuses: edits that are no alignment of a and b, and CIGARs
// that are not one, are errors naming why.
func TestBlocksRefuses(t *testing.T) {
	a, b := Bytes([]byte("ab")), Bytes([]byte("ac"))
	for _, c := range []struct{ cigar, want string }{
		{"2=", "unequal"},
		{"1X1X", "equal"},
		{"1=", "stop"},
		{"1=1X1=", "past the end"},
		{"1=1X1I", "past the end"},
	} {
		edits, err := ParseCIGAR(c.cigar)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Blocks(a, b, edits, 60); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Blocks of %s: %v, want an error saying %q", c.cigar, err, c.want)
		}
	}
	for _, bad := range []string{"3", "=", "0=", "2Y", "1=x", "-1="} {
		if _, err := ParseCIGAR(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseCIGAR(%q): %v, want an error naming it", bad, err)
		}
	}
	// Two symbols drawn alike (·) are compared as themselves.
	for _, c := range []struct{ a, b []Cell }{
		{Bytes([]byte("\x01")), Bytes([]byte("\x02"))},
		{Runes("\t"), Runes("\n")},
	} {
		if _, err := Blocks(c.a, c.b, []Edit{{Subst, 1}}, 60); err != nil {
			t.Errorf("a substitution of two unprintable symbols: %v", err)
		}
		if _, err := Blocks(c.a, c.b, []Edit{{Match, 1}}, 60); err == nil {
			t.Errorf("a match of two different unprintable symbols: no error")
		}
	}
	// A symbol drawn like a gap is still walked as a symbol.
	if _, err := Blocks(Bytes([]byte("-")), Bytes([]byte("-")), []Edit{{Match, 1}}, 60); err != nil {
		t.Errorf("a '-' matched with a '-': %v", err)
	}
}
