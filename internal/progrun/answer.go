package progrun

import (
	"bytes"
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// numberRE matches a number as programs print one: digits, a minus sign
// perhaps, a fraction perhaps. Whether it stands alone is checked apart
// (standsAlone): Go's regexps have no look-behind.
var numberRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-?[0-9]+(?:\.[0-9]+)?`) })

// afterDistanceRE is what may follow the word "distance" for the number
// after it to be the distance: "distance 3", "distance: 3", "Distance = 3",
// "distance is 3".
var afterDistanceRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\s:=]*(?:is\b[\s:=]*)?(-?[0-9]+(?:\.[0-9]+)?)`) })

// number is a number found in a line as printed, and as an integer where
// it is one: 3, or an integral decimal such as 3.0.
type number struct {
	raw      string
	value    string // the integer's digits where integral, else raw
	integer  bool   // printed without a fraction
	integral bool   // an integer, or a fraction of zeros
}

// numbersIn returns the numbers of line that stand alone: not inside a
// word or a name (x86_64, sm_80, ACGT2), nor a piece of a dotted one
// (1.2.3).
func numbersIn(line []byte) []number {
	var out []number
	for _, loc := range numberRE().FindAllIndex(line, -1) {
		if standsAlone(line, loc[0], loc[1]) {
			out = append(out, toNumber(string(line[loc[0]:loc[1]])))
		}
	}
	return out
}

func toNumber(s string) number {
	whole, frac, dotted := strings.Cut(s, ".")
	n := number{raw: s, value: s, integer: !dotted, integral: !dotted}
	if dotted && strings.Trim(frac, "0") == "" {
		n.value, n.integral = whole, true
	}
	return n
}

// standsAlone reports whether line[i:j], a match of numberRE, is a number
// of its own rather than part of a word or of a longer dotted number.
func standsAlone(line []byte, i, j int) bool {
	// A piece of a path, /tmp/levlab-verify-1/0/a, is no number: the
	// program printed the file it read.
	if i > 0 && isPathSep(line[i-1]) || j < len(line) && isPathSep(line[j]) {
		return false
	}
	if i > 0 {
		switch c := line[i-1]; {
		case isWordByte(c), c == '.':
			return false
		case c == '-' && i > 1 && isWordByte(line[i-2]): // 2024-01: not -01
			return false
		}
	}
	if line[i] == '-' && i > 0 && isWordByte(line[i-1]) {
		return false
	}
	// A menu's items, "1) enter the strings  2) compute the distance",
	// are numbered, not numbers; f(3) is a number.
	if j < len(line) && line[j] == ')' && (i == 0 || line[i-1] != '(') {
		return false
	}
	// 1.2.3: the match 1.2 is followed by .3.
	return !(j+1 < len(line) && line[j] == '.' && line[j+1] >= '0' && line[j+1] <= '9')
}

func isPathSep(c byte) bool { return c == '/' || c == '\\' }

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// lines returns out's lines, their line ends and surrounding spaces cut.
func lines(out []byte) [][]byte {
	var ls [][]byte
	for l := range bytes.Lines(out) {
		ls = append(ls, bytes.TrimSpace(l))
	}
	return ls
}

// defaultDistance finds the distance in out where no regexp says where it
// is, and returns it with the line it is on:
//
//  1. on the last line that names the distance ("distance", in any case)
//     and holds an integer: the number right after the word, else the
//     line's last integer;
//  2. else the last line that holds an integer alone;
//  3. else the last integer on stdout that is not part of a decimal
//     number (a time such as 0.000035 s is no distance).
//
// An integral decimal (3.0) reads as its integer where it is the number
// after "distance" or alone on its line.
func defaultDistance(out []byte) (num, line string, ok bool) {
	ls := lines(out)
	for i := len(ls) - 1; i >= 0; i-- {
		if n, ok := onDistanceLine(ls[i]); ok {
			return n, string(ls[i]), true
		}
	}
	for i := len(ls) - 1; i >= 0; i-- {
		if loc := numberRE().FindIndex(ls[i]); loc != nil && loc[0] == 0 && loc[1] == len(ls[i]) {
			if n := toNumber(string(ls[i])); n.integral {
				return n.value, string(ls[i]), true
			}
		}
	}
	for i := len(ls) - 1; i >= 0; i-- {
		if n, ok := lastInteger(ls[i]); ok {
			return n, string(ls[i]), true
		}
	}
	return "", "", false
}

// lastInteger returns the last integer of line that is not part of a
// decimal number.
func lastInteger(line []byte) (string, bool) {
	ns := numbersIn(line)
	for k := len(ns) - 1; k >= 0; k-- {
		if ns[k].integer {
			return ns[k].value, true
		}
	}
	return "", false
}

// onDistanceLine returns the distance a line naming it gives: the number
// right after the word "distance" where it is integral, else the line's
// last integer that is not part of a decimal number.
func onDistanceLine(line []byte) (string, bool) {
	lower := bytes.ToLower(line)
	word := []byte("distance")
	if !bytes.Contains(lower, word) {
		return "", false
	}
	for off := 0; ; {
		k := bytes.Index(lower[off:], word)
		if k < 0 {
			break
		}
		after := off + k + len(word)
		if m := afterDistanceRE().FindSubmatchIndex(line[after:]); m != nil {
			i, j := after+m[2], after+m[3]
			if n := toNumber(string(line[i:j])); n.integral && standsAlone(line, i, j) {
				return n.value, true
			}
		}
		off = after
	}
	return lastInteger(line)
}

// lineOf returns the line of out that holds byte offset i, its spaces cut.
func lineOf(out []byte, i int) string {
	start := bytes.LastIndexByte(out[:i], '\n') + 1
	end := bytes.IndexByte(out[i:], '\n')
	if end < 0 {
		end = len(out)
	} else {
		end += i
	}
	return string(bytes.TrimSpace(out[start:end]))
}

// lastGroup returns the first group of re's last match in out, and the
// line the match ends on.
func lastGroup(out []byte, re *regexp.Regexp) (group []byte, line string, ok bool) {
	all := re.FindAllSubmatchIndex(out, -1)
	if len(all) == 0 {
		return nil, "", false
	}
	m := all[len(all)-1]
	if len(m) < 4 || m[2] < 0 {
		return nil, "", false
	}
	return bytes.TrimSpace(out[m[2]:m[3]]), lineOf(out, m[2]), true
}

// Quote returns line short and quoted, as failures cite the line a number
// came from.
func Quote(line string) string { return quote([]byte(line)) }

// QuoteNumber is Quote for the line number n was read from: a line too
// long to quote whole is cut around the last place n stands alone in it,
// so that the quote shows what was read ("...with 2 workers").
func QuoteNumber(line string, n int) string {
	b := []byte(line)
	if len(b) <= quoteMax {
		return quote(b)
	}
	want, at := strconv.Itoa(n), -1
	for _, loc := range numberRE().FindAllIndex(b, -1) {
		if standsAlone(b, loc[0], loc[1]) && toNumber(string(b[loc[0]:loc[1]])).value == want {
			at = loc[0]
		}
	}
	if at < 0 {
		return quote(b)
	}
	const before = quoteMax / 2
	start := max(0, at-before)
	end := min(len(b), start+quoteMax-6)
	cut := string(runeCut(b, start, end))
	if start > 0 {
		cut = "..." + cut
	}
	if end < len(b) {
		cut += "..."
	}
	return strconv.Quote(cut)
}

// LastLine is ": LINE", the last non-empty line of b, short and quoted,
// for a message; "" when there is none.
func LastLine(b []byte) string {
	ls := lines(b)
	for i := len(ls) - 1; i >= 0; i-- {
		if len(ls[i]) > 0 {
			return fmt.Sprintf(": %s", quoteLine(ls[i]))
		}
	}
	return ""
}

// quoteLine quotes a line of output for a message, cut at 120 bytes.
func quoteLine(line []byte) string { return fmt.Sprintf("%q", clip(line, 120)) }

// echoMin is the shortest string of a case that blankEchoes blanks: a
// shorter one printed is as likely the program's own words or number
// ("3" where the distance is 3) as the string printed back.
const echoMin = 4

// echoBlank stands where a string printed back was: no digit, no line
// end, no piece of a word or a path.
const echoBlank = "…"

// blankEchoes returns out with each of echoes that the rules could
// misread — one of echoMin bytes or more that holds a digit, a line end
// or the word "distance" — replaced by echoBlank wherever the program
// printed it back, the longest first: "distance from ab3\ncd to xy: 4"
// is read as "distance from … to xy: 4". It returns out itself where it
// blanks nothing.
func blankEchoes(out []byte, echoes [][]byte) []byte {
	echoes = slices.Clone(echoes)
	slices.SortStableFunc(echoes, func(x, y []byte) int { return cmp.Compare(len(y), len(x)) })
	for _, e := range echoes {
		if len(e) < echoMin || len(e) > len(out) || !bytes.Contains(out, e) || !misreadable(e) {
			continue
		}
		out = bytes.ReplaceAll(out, e, []byte(echoBlank))
	}
	return out
}

// misreadable reports whether a string printed back could be read for
// the distance, or move the line it is read from.
func misreadable(s []byte) bool {
	return bytes.ContainsAny(s, "0123456789\n\r") || bytes.Contains(bytes.ToLower(s), []byte("distance"))
}

// readDistance reads the distance from out as o says: the first group of
// o.Distance's last match, else the default rule (defaultDistance); and
// the line it was read from.
func readDistance(out []byte, o Options) (num, line string, ok bool) {
	if o.Distance != nil {
		g, line, ok := lastGroup(out, o.Distance)
		return string(g), line, ok
	}
	return defaultDistance(out)
}

// onStderr is what a run that printed no distance on stdout printed on
// stderr where that holds one, read as stdout is (a C++ program's
// std::cerr): "; its stderr has one, the line …: levlab reads stdout".
func onStderr(stderr []byte, o Options) string {
	_, line, ok := readDistance(stderr, o)
	if !ok {
		return ""
	}
	return fmt.Sprintf("; its stderr has one, the line %s: levlab reads the distance on stdout", Quote(line))
}
