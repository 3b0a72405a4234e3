package report

import (
	"math"
	"strconv"
	"strings"
)

// The number formatters: how every figure of the report is written.

// num formats x to three significant digits ("0.0345", "12.3", "1,234").
func num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "—"
	}
	if x == 0 {
		return "0"
	}
	a := math.Abs(x)
	if a >= 100 {
		return groupDigits(strconv.FormatFloat(math.Round(x), 'f', 0, 64))
	}
	d := 2 - int(math.Floor(math.Log10(a)))
	s := strconv.FormatFloat(x, 'f', d, 64)
	// Rounding can carry into a new digit (9.996 → "10.00"): one fewer.
	if r, _ := strconv.ParseFloat(s, 64); math.Abs(r) >= math.Pow(10, float64(3-d)) && d > 0 {
		s = strconv.FormatFloat(x, 'f', d-1, 64)
	}
	return s
}

// groupDigits puts a comma between each three digits of the whole part of
// a formatted number.
func groupDigits(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}

// count formats a whole number with thousands separators.
func count[T int | int64](n T) string { return groupDigits(strconv.FormatInt(int64(n), 10)) }

// durUnit returns the unit a time of sec seconds reads best in, and the
// number of seconds in it.
func durUnit(sec float64) (string, float64) {
	a := math.Abs(sec)
	switch {
	case a == 0 || a >= 1:
		return "s", 1
	case a >= 1e-3:
		return "ms", 1e-3
	}
	return "µs", 1e-6
}

// dur formats a time given in seconds: "345 µs", "12.3 ms", "1.52 s".
func dur(sec float64) string {
	if !finite(sec) {
		return "—"
	}
	u, scale := durUnit(sec)
	return num(sec/scale) + " " + u
}

// secs formats a point as its median time, with the spread of its
// repetitions (min–max, in the median's unit) as a second line when there
// are several.
func secs(s stat) string {
	if s.n > 1 {
		u, scale := durUnit((s.min + s.max) / 2)
		// A spread too small to show at three digits is left out.
		if lo, hi := num(s.min/scale), num(s.max/scale); lo != hi {
			return dur(s.med) + "\n" + lo + "–" + hi + " " + u
		}
	}
	return dur(s.med)
}

// bytesStr formats a size in bytes: "512 B", "3.05 MiB".
func bytesStr(b float64) string {
	switch {
	case b >= 1<<30:
		return num(b/(1<<30)) + " GiB"
	case b >= 1<<20:
		return num(b/(1<<20)) + " MiB"
	case b >= 1<<10:
		return num(b/(1<<10)) + " KiB"
	}
	return num(b) + " B"
}

// times formats a ratio: "3.62×".
func times(x float64) string { return num(x) + "×" }

// pubNum formats a published number as its report printed it, with
// thousands separators, where it printed four significant digits or fewer
// ("0.38", "181.5"); a number printed with more ("0.6186212674082705")
// is rounded to three.
func pubNum(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	digits := strings.TrimLeft(strings.ReplaceAll(strings.TrimPrefix(s, "-"), ".", ""), "0")
	if len(digits) > 4 {
		return num(v)
	}
	return groupDigits(s)
}

// size formats a string length or a byte count of an input: "10,000".
func size(n int) string { return count(n) }

// decimals is how many decimals the shortest form of v has: 1.3 has one.
func decimals(v float64) int {
	_, frac, _ := strings.Cut(strconv.FormatFloat(v, 'f', -1, 64), ".")
	return len(frac)
}
