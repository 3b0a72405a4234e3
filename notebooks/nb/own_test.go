package nb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/levlab/levlab/experiments"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/spec"
)

// VerifyHTML says every case agreed for lev, and names the smallest
// failure of a function wrong past 300 bytes; Command runs a program with
// the placeholders filled and says why it gave no answer.
func TestVerifyHTML(t *testing.T) {
	right := func(_ context.Context, a, b []byte) (int, error) { return lev.Distance(a, b) }
	h, ok := VerifyHTML("lev", right, 200)
	if !ok || !strings.Contains(h, "lev: 200 of 200 cases agree") {
		t.Errorf("lev: ok %v\n%s", ok, h)
	}
	wrong := func(ctx context.Context, a, b []byte) (int, error) {
		d, err := right(ctx, a, b)
		if len(a) > 300 {
			d++
		}
		return d, err
	}
	h, ok = VerifyHTML("wrong", wrong, 300)
	if ok || !strings.Contains(h, "The smallest failures") || !strings.Contains(h, ", want ") {
		t.Errorf("wrong: ok %v\n%s", ok, h)
	}
	// By family: the known answers (all short) agree, the long pairs fail,
	// each family's smallest failure named.
	for _, want := range []string{"Failures by family of case", "<td>known answers</td><td>21 agree</td>", "<td>long</td><td>23 of 23 fail</td><td>long 2047: deletion at the end (2047 and 2046 bytes): answered 2, want 1</td>"} {
		if !strings.Contains(bareCells(h), want) {
			t.Errorf("wrong: no %q\n%s", want, h)
		}
	}
	// A reason every failure gives is said once, and it stops at 100
	// failures, saying how many cases it left.
	always := func(_ context.Context, a, b []byte) (int, error) {
		return -1, fmt.Errorf("answered %d: it reads no input", len(a))
	}
	h, ok = VerifyHTML("always", always, 300)
	if ok || strings.Count(h, "it reads no input") != 1 || !strings.Contains(h, "Every failure says why the same way: it reads no input") ||
		!strings.Contains(h, "0 of 100 cases agree; 100 fail (it stops at 100 failures: the 200 longest of the 300 cases did not run)") ||
		!strings.Contains(bareCells(h), "<td>long</td><td>23 not run</td><td></td>") {
		t.Errorf("always: ok %v\n%s", ok, h)
	}
	// One error, word for word, every time: said once, whole.
	none, _ := VerifyHTML("none", func(context.Context, []byte, []byte) (int, error) { return 0, errors.New("nb: Command: no program") }, 30)
	if strings.Count(none, "nb: Command: no program") != 1 || !strings.Contains(none, "Every failure says why the same way: nb: Command: no program.") ||
		!strings.Contains(bareCells(none), "<td>known: &#34;&#34; vs &#34;&#34; (0 and 0 bytes)</td>") || strings.Contains(none, "<th style=\"border:1px solid #bbb;padding:2px 8px;text-align:left\">why</th>") {
		t.Errorf("one error every time: not said once, whole\n%s", none)
	}
	ran, left := 0, 0
	for _, m := range regexp.MustCompile(`<td>(?:[0-9]+ of ([0-9]+) fail)?(?:, )?(?:([0-9]+) not run)?</td>`).FindAllStringSubmatch(bareCells(h), -1) {
		r, _ := strconv.Atoi(m[1])
		l, _ := strconv.Atoi(m[2])
		ran, left = ran+r, left+l
	}
	if ran != 100 || left != 200 {
		t.Errorf("always: the families hold %d cases that ran and %d that did not, want 100 and 200\n%s", ran, left, h)
	}
	echo := Command(1, 5*time.Second, "sh", "-c", "wc -c < \"$0\"", "{a}")
	if d, err := echo(context.Background(), []byte("abcd"), []byte("x")); err != nil || d != 4 {
		t.Errorf("a command printing the length of {a}: %d, %v; want 4", d, err)
	}
	// A program that took the files' names for the strings: 1 apart.
	names := Command(1, 5*time.Second, "sh", "-c", "echo 1", "{a}", "{b}")
	if _, err := names(context.Background(), []byte("abc"), []byte("xyz")); err == nil || !strings.Contains(err.Error(), "answered 1, want 3: 1 is the distance between its arguments") ||
		!strings.Contains(err.Error(), "{a:text} and {b:text}") {
		t.Errorf("file names for strings: %v", err)
	}
	if d, err := names(context.Background(), []byte("a"), []byte("b")); err != nil || d != 1 {
		t.Errorf("file names for strings, where 1 is right: %d, %v", d, err)
	}
	if _, err := Command(1, time.Second, "true")(context.Background(), nil, nil); err == nil || !strings.Contains(err.Error(), "printed no distance") {
		t.Errorf("a command printing nothing: %v", err)
	}
	if _, err := Command(1, time.Second, "cat", "{c}")(context.Background(), nil, nil); err == nil || !strings.Contains(err.Error(), "{c}") {
		t.Errorf("an unknown placeholder: %v", err)
	}
}

// bareCells is h with its cells' styles left out: <td>…</td>.
func bareCells(h string) string {
	return regexp.MustCompile(`<td [^>]*>`).ReplaceAllString(h, "<td>")
}

// RunOwn times a spec with a Go function into the run's folder, keeps the
// spec there, and returns the experiment's section: findings, a figure and
// the failure of the wrong function.
func TestRunOwn(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	e := Env{Root: root, Results: filepath.Join(root, "results"), Scale: experiments.Quick, Measured: filepath.Join(out, "m", "quick")}
	s := &spec.Spec{Name: "nb-own", Reps: 2, Inputs: spec.Inputs{N: []int{50, 400}},
		Impl:   []spec.Impl{{Name: "lev", Algo: "myers"}},
		Figure: []spec.Figure{{X: "n", Y: "time"}}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	wrong := func(_ context.Context, a, b []byte, _, _ int) (int, error) {
		d, err := lev.Distance(a, b)
		if len(a) > 100 {
			d--
		}
		return d, err
	}
	own, err := experiments.FromSpec(s, map[string]experiments.Func{"mine": wrong})
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	sec, err := e.RunOwn(own)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.Measured, "nb-own.toml")); err != nil {
		t.Errorf("the spec is not kept: %v", err)
	}
	if sec.ID != "own-nb-own" || len(sec.Figures) != 1 || !strings.Contains(sec.HTML, "1 point failed") || !strings.Contains(sec.HTML, "FAILED") {
		t.Errorf("section %s, %d figures:\n%s", sec.ID, len(sec.Figures), sec.Markdown)
	}
}
