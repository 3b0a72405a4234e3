package levtest

import "testing"

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
