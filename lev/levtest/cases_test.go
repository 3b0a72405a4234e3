package levtest

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestCases: Cases makes as many cases as asked, every one's Want the
// reference distance, text cases valid UTF-8, and the long lengths around
// the powers of two and tile multiples up to MaxLen.
func TestCases(t *testing.T) {
	for _, runes := range []bool{false, true} {
		cases := Cases(rand.New(rand.NewPCG(1, 2)), CaseOptions{N: 700, MaxLen: 5000, Runes: runes})
		if len(cases) != 700 {
			t.Fatalf("runes %v: %d cases, want 700", runes, len(cases))
		}
		longest := 0
		for _, c := range cases {
			longest = max(longest, len(c.A), len(c.B))
			want := Reference(c.A, c.B)
			if runes {
				want = ReferenceString(string(c.A), string(c.B))
				if !utf8.Valid(c.A) || !utf8.Valid(c.B) || !c.Runes {
					t.Errorf("%s: a text case that is not valid UTF-8 text", c.Name)
				}
			}
			if c.Want != want {
				t.Errorf("%s: Want %d, the reference says %d", c.Name, c.Want, want)
			}
		}
		if longest != 5000 {
			t.Errorf("runes %v: the longest string is %d, want MaxLen 5000", runes, longest)
		}
	}
	got := longLengths(20000)
	for _, n := range []int{2047, 2048, 2049, 16383, 16384, 16385, 2099, 2100, 2101, 2499, 2500, 2501, 2999, 3000, 3001, 19999, 20000} {
		found := false
		for _, g := range got {
			found = found || g == n
		}
		if !found {
			t.Errorf("longLengths(20000) = %v lacks %d", got, n)
		}
	}
}

// TestCasesMaxLen: a MaxLen below the boundary lengths and the random
// pairs' keeps every string of every case to it, in symbols, and still
// makes as many cases, random pairs among them.
func TestCasesMaxLen(t *testing.T) {
	for _, runes := range []bool{false, true} {
		cases := Cases(rand.New(rand.NewPCG(5, 6)), CaseOptions{N: 400, MaxLen: 99, Runes: runes})
		if len(cases) != 400 {
			t.Fatalf("runes %v: %d cases, want 400", runes, len(cases))
		}
		longest, random := 0, 0
		for _, c := range cases {
			la, lb := len(c.A), len(c.B)
			if runes {
				la, lb = utf8.RuneCount(c.A), utf8.RuneCount(c.B)
			}
			longest = max(longest, la, lb)
			if strings.HasPrefix(c.Name, "random ") {
				random++
			}
		}
		if longest > 99 || longest < 90 || random < 200 {
			t.Errorf("runes %v: the longest string %d symbols, want 90 to 99; %d random pairs, want 200 or more", runes, longest, random)
		}
	}
}

// TestNoCaseTwice: no case made by construction (known answers, the
// length boundaries' edits, the long ones) comes twice under one name with
// the same strings — at length 1 the first, middle and last positions
// are one, and a failure there once counted three times. Random cases may
// meet by chance, so they are left out.
func TestNoCaseTwice(t *testing.T) {
	for _, runes := range []bool{false, true} {
		seen := map[string]bool{}
		for _, c := range Cases(rand.New(rand.NewPCG(3, 4)), CaseOptions{N: 1000, MaxLen: 3000, Runes: runes}) {
			if strings.HasPrefix(c.Name, "random ") {
				continue
			}
			key := c.Name + "\x00" + string(c.A) + "\x00" + string(c.B)
			if seen[key] {
				t.Errorf("runes %v: %s (%d and %d bytes) twice", runes, c.Name, len(c.A), len(c.B))
			}
			seen[key] = true
		}
	}
}

// TestCaseFamilies: every case names the family it is made in, and the
// families come in FamilyRank's order but the random pairs, whose
// alphabets alternate: the known answers, then each boundary length's
// cases and random pairs of it, then pairs past 1,001 symbols, then
// random pairs up to 299 symbols over the alphabet their family names.
func TestCaseFamilies(t *testing.T) {
	boundary := regexp.MustCompile(`^(?:length|random) ([0-9]+)\b`)
	for _, o := range []CaseOptions{{}, {Runes: true}, {Text: true}, {EqualLengths: true}, {N: 3000, MaxLen: 5000}, {N: 60}} {
		count := map[string]int{}
		last := 0
		for _, c := range Cases(rand.New(rand.NewPCG(5, 6)), o) {
			count[c.Family]++
			n := max(utf8.RuneCount(c.A), utf8.RuneCount(c.B))
			if !o.Runes {
				n = max(len(c.A), len(c.B))
			}
			rank := FamilyRank(c.Family)
			if rank < last {
				t.Errorf("%+v: %s (%s) after a case of rank %d", o, c.Name, c.Family, last)
			}
			last = min(rank, 3)
			switch {
			case c.Family == FamilyKnown:
				if strings.HasPrefix(c.Name, "length ") || strings.HasPrefix(c.Name, "random ") || strings.HasPrefix(c.Name, "long ") {
					t.Errorf("%+v: %s is no known answer", o, c.Name)
				}
			case c.Family == FamilyBoundaries:
				m := boundary.FindStringSubmatch(c.Name)
				if m == nil || !slices.Contains(boundaryLengths, atoi(m[1])) {
					t.Errorf("%+v: %s is at no boundary length", o, c.Name)
				}
			case c.Family == FamilyLong:
				if n <= 1001 {
					t.Errorf("%+v: %s is %d symbols long, no long case", o, c.Name, n)
				}
			case strings.HasPrefix(c.Family, FamilyRandom):
				if !strings.HasPrefix(c.Name, "random ") || !strings.HasSuffix(c.Name, strings.TrimPrefix(c.Family, "random")) || n > 299 {
					t.Errorf("%+v: %s (%d symbols) is no pair of family %q", o, c.Name, n, c.Family)
				}
			default:
				t.Errorf("%+v: %s: family %q", o, c.Name, c.Family)
			}
		}
		if o.N != 60 && (count[FamilyKnown] == 0 || count[FamilyBoundaries] == 0 || count[FamilyLong] == 0 || len(count) < 7) {
			t.Errorf("%+v: families %v, want known, boundaries, long and four random", o, count)
		}
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// runCasesEnv makes TestRunCasesRejects, in its child, run RunCases on a
// distance wrong past 300 bytes.
const runCasesEnv = "LEVTEST_RUNCASES_BROKEN"

// TestRunCasesRejects: RunCases fails an implementation that is wrong on
// long inputs alone, naming the smallest failing case first.
func TestRunCasesRejects(t *testing.T) {
	if os.Getenv(runCasesEnv) == "1" {
		RunCases(t, func(a, b []byte) (int, error) {
			d := Reference(a, b)
			if len(a) > 300 {
				d++
			}
			return d, nil
		}, CaseOptions{N: 300, MaxLen: 2100})
		return
	}
	if testing.Short() {
		t.Skip("starts a child test process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRunCasesRejects$")
	cmd.Env = append(os.Environ(), runCasesEnv+"=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("RunCases passed a distance wrong past 300 bytes (err %v):\n%s", err, out)
	}
	first := regexp.MustCompile(`cases_test.go:\d+: (.*) \((\d+) and (\d+) bytes\): answered (\d+), want (\d+)`).FindStringSubmatch(string(out))
	if first == nil || first[2] != "999" {
		t.Errorf("the first failure named is not the smallest case past 300 bytes (999):\n%s", out)
	}
}

// TestCasesContextStops: made under a context that is done, the cases
// stop at once, even where their long cases' exact distances would take
// minutes, and say why.
func TestCasesContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	cases, err := CasesContext(ctx, rand.New(rand.NewPCG(1, 2)), CaseOptions{N: 100000, MaxLen: 1 << 20})
	if !errors.Is(err, context.Canceled) || cases != nil {
		t.Errorf("CasesContext under a cancelled context: %d cases, %v", len(cases), err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("stopping took %v", took)
	}
}
