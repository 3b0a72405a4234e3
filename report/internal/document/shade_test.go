package document

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

// Shade keeps the first machine's colour, and gives the others a darker
// or lighter one of the same hue.
func TestShade(t *testing.T) {
	for _, c := range []struct {
		m    int
		want string
	}{{0, "#5470c6"}, {1, "#324377"}, {2, "#435a9e"}, {4, "#5470c6"}} {
		if got := Shade("#5470c6", c.m); got != c.want {
			t.Errorf("Shade(#5470c6, %d) = %s, want %s", c.m, got, c.want)
		}
	}
	if got := Shade("blue", 1); got != "blue" {
		t.Errorf("shade of a name = %s, want it unchanged", got)
	}
}

// TestPaletteOnPaper: every colour a line can take, on every machine,
// stands out from white paper by WCAG's 3:1 for graphics.
func TestPaletteOnPaper(t *testing.T) {
	lum := func(hex string) float64 {
		var c [3]float64
		for i := range c {
			var v int
			if _, err := fmt.Sscanf(hex[1+2*i:3+2*i], "%02x", &v); err != nil {
				t.Fatalf("colour %q: %v", hex, err)
			}
			x := float64(v) / 255
			if x <= 0.03928 {
				x /= 12.92
			} else {
				x = math.Pow((x+0.055)/1.055, 2.4)
			}
			c[i] = x
		}
		return 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2]
	}
	seen := map[string]bool{}
	for _, p := range palette {
		if seen[p] {
			t.Errorf("colour %s twice in the palette", p)
		}
		seen[p] = true
		for m := range 4 {
			s := Shade(p, m)
			if contrast := 1.05 / (lum(s) + 0.05); contrast < 3 {
				t.Errorf("%s on machine %d is %s, %.2f:1 against white; want 3:1 or more", p, m, s, contrast)
			}
		}
	}
}

// A colour too short to be #rrggbb is returned as it is, not sliced past
// its end.
func TestShadeShort(t *testing.T) {
	for _, c := range []string{"", "#", "#a", "#abcd"} {
		if got := Shade(c, 1); got != c {
			t.Errorf("Shade(%q, 1) = %q, want it unchanged", c, got)
		}
	}
}

func TestMarkLabel(t *testing.T) {
	for name, want := range map[string]string{
		"1×: as fast as on one worker":            "1×",
		"1: perfect scaling":                      "1",
		"report: ≥ 4× (stated around n = 10,000)": "report: ≥ 4× (stated around n = 10,000)",
		"2 cores": "2 cores",
	} {
		if got := markLabel(name); got != want {
			t.Errorf("markLabel(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestNiceAbove(t *testing.T) {
	for x, want := range map[float64]float64{4.8: 6, 1.2: 2, 2.2: 3, 12: 20, 0.3: 0.3, 5: 6, 7: 8} {
		if got := niceAbove(x); math.Abs(got-want) > 1e-9 {
			t.Errorf("niceAbove(%v) = %v, want %v", x, got, want)
		}
	}
}

// A log axis of bytes ticks at powers of 32, so that it ends at most 32
// times above its data (4.66 GiB drew an axis to 1 TiB at powers of 1024);
// a log axis of time keeps its decades.
func TestBytesAxisBase(t *testing.T) {
	pts := []FigurePoint{{X: 1000, Y: 4096, Lo: 4096, Hi: 4096}, {X: 50000, Y: 5e9, Lo: 5e9, Hi: 5e9}}
	base := func(yName string) any {
		c := &Figure{ID: "m", Title: "m", XName: "n", YName: yName, XLog: true, YLog: true, Series: []FigureSeries{{Name: "a", Points: pts}}}
		_, o := c.Option("600px", "300px")
		b, err := json.Marshal(o["yAxis"])
		if err != nil {
			t.Fatal(err)
		}
		var axes []map[string]any
		if err := json.Unmarshal(b, &axes); err != nil || len(axes) != 1 {
			t.Fatalf("yAxis %s: %v", b, err)
		}
		return axes[0]["logBase"]
	}
	if got := base("bytes allocated"); got != float64(32) {
		t.Errorf("bytes axis logBase %v, want 32", got)
	}
	if got := base(TimeAxis); got != nil {
		t.Errorf("time axis logBase %v, want none (10)", got)
	}
}
