package document

import (
	"math"
	"strconv"
	"strings"
)

// The number formatters: how every figure of the report is written. Every
// number they write has a bounded count of digits, whatever the records
// hold: at most six digits, and past plainMin and plainMax three
// significant digits times a power of ten ("1.00×10⁻³⁰⁰"), not a number
// of three hundred digits.

// plainMin and plainMax bound what num writes without a power of ten:
// 0.000100 to 999,999.
const (
	plainMin = 1e-4
	plainMax = 1e6
)

// CI writes an interval of a ratio, lo–hi, each bound as Num writes it
// but with more digits where Num would round a bound that is not 1 to
// 1.00: an interval that excludes 1× must not read as one that touches
// it.
func CI(lo, hi float64) string { return CIFrom(lo, hi, 1) }

// CIFrom is CI for an interval set against ref rather than 1 (a speedup
// against its workers): a bound that is not ref gets the digits that tell
// it from ref.
func CIFrom(lo, hi, ref float64) string {
	bound := func(x float64) string {
		s := Num(x)
		for d := 3; x != ref && d <= 6; d++ {
			if v, err := strconv.ParseFloat(s, 64); err != nil || v != ref {
				break
			}
			s = strconv.FormatFloat(x, 'f', d, 64)
		}
		return s
	}
	return bound(lo) + "–" + bound(hi)
}

// Num formats x to three significant digits: "0.0345", "12.3", "433",
// and from 1,000 on the rest of the whole number zeros ("12,400", not
// "12,364": no measured rate here is steadier than a few percent between
// runs, so a fourth digit would claim what the runs do not show); under
// plainMin or from plainMax on as three significant digits times a power
// of ten ("2.50×10¹²").
func Num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "—"
	}
	if x == 0 {
		return "0"
	}
	a := math.Abs(x)
	if a < plainMin || a >= plainMax {
		return sci(x)
	}
	if a >= 100 {
		unit := math.Pow(10, math.Floor(math.Log10(a))-2)
		return groupDigits(strconv.FormatFloat(math.Round(x/unit)*unit, 'f', 0, 64))
	}
	d := 2 - int(math.Floor(math.Log10(a)))
	s := strconv.FormatFloat(x, 'f', d, 64)
	// Rounding can carry into a new digit (9.996 → "10.00"): one fewer.
	if r, _ := strconv.ParseFloat(s, 64); math.Abs(r) >= math.Pow(10, float64(3-d)) && d > 0 {
		s = strconv.FormatFloat(x, 'f', d-1, 64)
	}
	return s
}

// sci formats x, finite and not 0, as three significant digits times a
// power of ten: "1.00×10⁻³⁰⁰", "-2.50×10¹²".
func sci(x float64) string {
	mant, exp, _ := strings.Cut(strconv.FormatFloat(x, 'e', 2, 64), "e")
	e, _ := strconv.Atoi(exp)
	return mant + "×10" + superscript(e)
}

// superscript writes n in superscript digits: "⁻³⁰⁰".
func superscript(n int) string {
	digits := []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")
	return strings.Map(func(c rune) rune {
		if c == '-' {
			return '⁻'
		}
		return digits[c-'0']
	}, strconv.Itoa(n))
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

// Count formats a whole number with thousands separators.
func Count[T int | int64](n T) string { return groupDigits(strconv.FormatInt(int64(n), 10)) }

// DurUnit returns the unit a time of sec seconds reads best in, and the
// number of seconds in it: s, ms, µs, ns, and s again under a
// nanosecond, where num writes a power of ten.
func DurUnit(sec float64) (string, float64) {
	a := math.Abs(sec)
	switch {
	case a == 0 || a >= 1:
		return "s", 1
	case a >= 1e-3:
		return "ms", 1e-3
	case a >= 1e-6:
		return "µs", 1e-6
	case a >= 1e-9:
		return "ns", 1e-9
	}
	return "s", 1
}

// Dur formats a time given in seconds: "345 µs", "12.3 ms", "1.52 s".
func Dur(sec float64) string {
	if !finite(sec) {
		return "—"
	}
	u, scale := DurUnit(sec)
	return Num(sec/scale) + " " + u
}

// BytesStr formats a size in bytes: "512 B", "3.05 MiB".
func BytesStr(b float64) string {
	switch {
	case b >= 1<<30:
		return Num(b/(1<<30)) + " GiB"
	case b >= 1<<20:
		return Num(b/(1<<20)) + " MiB"
	case b >= 1<<10:
		return Num(b/(1<<10)) + " KiB"
	}
	return Num(b) + " B"
}

// Times formats a ratio: "3.62×".
func Times(x float64) string { return Num(x) + "×" }

// PubNum formats a published number as its report printed it, with
// thousands separators, where it printed four significant digits or fewer
// ("0.38", "181.5"); a number printed with more ("0.6186212674082705"),
// or one num writes with a power of ten, as num does.
func PubNum(v float64) string {
	if a := math.Abs(v); a != 0 && (a < plainMin || a >= plainMax) {
		return Num(v)
	}
	s := strconv.FormatFloat(v, 'f', -1, 64)
	digits := strings.TrimLeft(strings.ReplaceAll(strings.TrimPrefix(s, "-"), ".", ""), "0")
	if len(digits) > 4 {
		return Num(v)
	}
	return groupDigits(s)
}

// maxDecimals is the most decimals pubFixed writes: a column of published
// times printed to a common count of decimals ("1.30 s") keeps it up to
// here.
const maxDecimals = 4

// PubFixed formats a published number with dec decimals, as a report
// printed a column of them ("0.38" with two as "0.38", "4" as "4.00"); past
// maxDecimals, or where num writes a power of ten, as pubNum does.
func PubFixed(v float64, dec int) string {
	if a := math.Abs(v); dec > maxDecimals || a != 0 && (a < plainMin || a >= plainMax) {
		return PubNum(v)
	}
	return groupDigits(strconv.FormatFloat(v, 'f', max(dec, 0), 64))
}

// Size formats a string length or a byte count of an input: "10,000".
func Size(n int) string { return Count(n) }

// Decimals is how many decimals the shortest form of v has: 1.3 has one.
func Decimals(v float64) int {
	_, frac, _ := strings.Cut(strconv.FormatFloat(v, 'f', -1, 64), ".")
	return len(frac)
}

// JoinAnd lists items as a sentence does: "1 and 2", "1, 2 and 4".
func JoinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
