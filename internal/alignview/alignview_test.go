package alignview

import (
	"testing"

	"github.com/levlab/levlab/lev"
)

func TestBlocks(t *testing.T) {
	// kitten → sitting, two columns a block: the positions run on, a
	// block of b alone keeps a's last position.
	edits := []lev.Edit{{lev.OpSubst, 1}, {lev.OpMatch, 3}, {lev.OpSubst, 1}, {lev.OpMatch, 1}, {lev.OpDel, 1}}
	got := Blocks(Bytes([]byte("kitten")), Bytes([]byte("sitting")), edits, 2)
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
		{Bytes([]byte("a\x00\xff~")), []Cell{{"a", 1}, NoPrint, NoPrint, {"~", 1}}},
		{Runes("日a\u0301\t"), []Cell{{"日", 2}, {"a", 1}, NoPrint, NoPrint}},
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
	top, mid, bot := Blocks(Runes("日x"), Runes("本x"), []lev.Edit{{lev.OpSubst, 1}, {lev.OpMatch, 1}}, 60)[0].Lines()
	if top != "日x" || mid != ". |" || bot != "本x" {
		t.Errorf("wide: %q %q %q", top, mid, bot)
	}
}
