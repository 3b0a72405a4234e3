package option

import (
	"errors"
	"strings"
	"testing"
)

type color uint8

func TestNames(t *testing.T) {
	n := NewNames[color]("pkg", "Color", "color", "red", "green")
	if got := n.All(); len(got) != 2 || got[0] != 0 || got[1] != 1 {
		t.Errorf("All() = %v, want [0 1]", got)
	}
	for _, v := range n.All() {
		text, err := n.Marshal(v)
		if err != nil {
			t.Fatalf("Marshal(%d): %v", v, err)
		}
		var back color
		if err := n.Unmarshal(&back, text); err != nil || back != v || n.String(v) != string(text) {
			t.Errorf("%d: marshalled %q, back %d, %v; String %q", v, text, back, err, n.String(v))
		}
	}
	if got := n.String(7); got != "Color(7)" {
		t.Errorf("String(7) = %q, want Color(7)", got)
	}
	for _, err := range []error{
		func() error { _, err := n.Parse("blue"); return err }(),
		func() error { _, err := n.Marshal(7); return err }(),
		func() error { var c color; return n.Unmarshal(&c, []byte("Red")) }(),
		n.Unknown(9),
	} {
		if !errors.Is(err, ErrInvalid) || !strings.HasPrefix(err.Error(), "pkg: ") || !strings.Contains(err.Error(), "valid: red, green") {
			t.Errorf("error %v: want it to wrap ErrInvalid, start with pkg: and list the valid names", err)
		}
	}
}
