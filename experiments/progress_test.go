package experiments

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// skipLines returns the progress lines of one skipped point per note.
func skipLines(notes ...string) []string {
	var out strings.Builder
	d := newDisplay(&out, 0)
	for i, note := range notes {
		d.begin("e", Point{Algorithm: "a"})
		d.done(Progress{Experiment: "e", Point: Point{Algorithm: "a"}, DonePoints: i + 1, TotalPoints: len(notes), Skipped: true, Note: note}, 0)
	}
	return strings.Split(strings.TrimSpace(out.String()), "\n")
}

// TestSkipReasonOnce: the progress lines give a skip reason in full once;
// the same reason again — every GPU point of a machine without one, from
// whichever algorithm — points at it; another reason is given in full.
func TestSkipReasonOnce(t *testing.T) {
	lines := skipLines(
		"skipped: lev: cuda-diagonal: cudaext: CUDA unavailable: libcuda.so.1: cannot open shared object file",
		"skipped: lev: cuda-fast: cudaext: CUDA unavailable: libcuda.so.1: cannot open shared object file",
		"skipped: edlib: built without -tags edlib",
	)
	want := []string{
		"[1/3] e a 0x0: skipped: lev: cuda-diagonal: cudaext: CUDA unavailable: libcuda.so.1: cannot open shared object file",
		"[2/3] e a 0x0: skipped, for the reason above",
		"[3/3] e a 0x0: skipped: edlib: built without -tags edlib",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress lines:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestSkipReasonDetail: a second GPU reason with another detail is given
// in full, not pointed at the first.
func TestSkipReasonDetail(t *testing.T) {
	lines := skipLines(
		"skipped: lev: cuda-fast: cudaext: CUDA unavailable: libcuda.so.1: cannot open shared object file",
		"skipped: lev: cuda-fast: cudaext: CUDA unavailable: the CUDA backend is not part of this build",
	)
	if strings.Contains(strings.Join(lines, "\n"), "reason above") {
		t.Errorf("two causes, the second pointed at the first:\n%s", strings.Join(lines, "\n"))
	}
}

// TestResumedOneLine: points an earlier run recorded are said in one line
// for each run of them, not one line each, before the next point's line and
// at the end.
func TestResumedOneLine(t *testing.T) {
	var out strings.Builder
	d := newDisplay(&out, 0)
	p := Point{Algorithm: "a"}
	for i := 1; i <= 6; i++ {
		d.begin("e", p)
		pr := Progress{Experiment: "e", Point: p, DonePoints: i, TotalPoints: 6, Rep: 10, Reps: 10, Note: noteRecorded}
		if i == 4 {
			pr.Note = ""
		}
		d.done(pr, 0)
	}
	d.finish()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		"[1-3/6] 3 points recorded earlier, not timed again",
		"[4/6] e a 0x0: 10 reps in 0s",
		"[5-6/6] 2 points recorded earlier, not timed again",
	}
	if len(lines) != len(want) || lines[0] != want[0] || !strings.HasPrefix(lines[1], "[4/6] e a 0x0: 10 reps in ") || lines[2] != want[2] {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestReadFromLine: a point whose repetitions were read from another
// implementation's runs says so, not the time it took to read them.
func TestReadFromLine(t *testing.T) {
	var out strings.Builder
	d := newDisplay(&out, 0)
	p := Point{Algorithm: "p_t", LenA: 10, LenB: 10}
	d.begin("e", p)
	d.done(Progress{Experiment: "e", Point: p, DonePoints: 2, TotalPoints: 4, Rep: 6, Reps: 6, ReadFrom: []string{"p_d"}}, 0)
	if got, want := strings.TrimSpace(out.String()), "[2/4] e p_t 10x10: 6 reps, read from p_d's runs"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
}

// TestBarLine: the bar's line fits the terminal, one column to spare, at
// every width; it says the count, and a wide terminal gets a bar that
// fills it, as full as the count.
func TestBarLine(t *testing.T) {
	desc := "distance-scaling myers-parallel w=2 tile=256 random 100000x100000"
	for _, width := range []int{1, 5, 10, 20, 30, 40, 60, 80, 120, 200} {
		line := barLine(desc, 42, 100, 5.1, 8*time.Second, width)
		if w := utf8.RuneCountInString(line); w > max(width-1, 1) {
			t.Errorf("width %d: line of %d runes: %q", width, w, line)
		}
		if strings.ContainsAny(line, "\r\n") {
			t.Errorf("width %d: line breaks in %q", width, line)
		}
		if width >= 40 && !strings.Contains(line, " 42% ") || width >= 40 && !strings.Contains(line, "42/100 rep, 5.1 rep/s, 11s left") {
			t.Errorf("width %d: the count, rate or time left missing from %q", width, line)
		}
		if width < 80 {
			continue
		}
		if w := utf8.RuneCountInString(line); w != width-1 {
			t.Errorf("width %d: line of %d runes, want %d: %q", width, w, width-1, line)
		}
		_, inner, ok := strings.Cut(line, "|")
		inner, _, ok2 := strings.Cut(inner, "|")
		if !ok || !ok2 {
			t.Fatalf("width %d: no bar in %q", width, line)
		}
		cells, full := utf8.RuneCountInString(inner), strings.Count(inner, "█")
		if cells < barMin || full != cells*42/100 {
			t.Errorf("width %d: %d of %d cells full, want %d: %q", width, full, cells, cells*42/100, line)
		}
	}
	if line := barLine("e", 0, 7, 0, 0, 80); !strings.Contains(line, "  0% |") || !strings.HasSuffix(line, "| 0/7 rep") {
		t.Errorf("no repetition yet: %q", line)
	}
	if line := barLine("e", 7, 7, 2, 3500*time.Millisecond, 80); !strings.Contains(line, "100% |███") || !strings.HasSuffix(line, "| 7/7 rep, in 4s") {
		t.Errorf("full: %q", line)
	}
}

// TestBarDraws: the bar redraws its line in place at most every 100 ms,
// never wider than the terminal, and ends it with one newline when full.
func TestBarDraws(t *testing.T) {
	var out strings.Builder
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := newBar(&out, 100, func() int { return 50 })
	b.now = func() time.Time { return clock }
	b.start, b.window = clock, []barSample{{clock, 0}}
	b.describe("e a 10x10")
	for range 100 {
		clock = clock.Add(10 * time.Millisecond) // 1 s in all
		b.add(1)
	}
	b.add(1) // past the end: nothing more
	b.end()
	s := out.String()
	if !strings.HasSuffix(s, "\n") || strings.Count(s, "\n") != 1 {
		t.Errorf("want one newline, at the end: %q", s)
	}
	draws := strings.Split(strings.TrimSuffix(strings.TrimPrefix(s, "\r"), "\n"), "\r")
	if len(draws) < 10 || len(draws) > 12 {
		t.Errorf("%d drawings in 1 s at most every 100 ms:\n%s", len(draws), strings.Join(draws, "\n"))
	}
	for _, d := range draws {
		if w := utf8.RuneCountInString(d); w > 49 {
			t.Errorf("a line of %d runes on 50 columns: %q", w, d)
		}
	}
	if last := draws[len(draws)-1]; !strings.HasPrefix(last, "e a 10x10 100% |") || !strings.HasSuffix(last, "| 100/100 rep, in 1s") {
		t.Errorf("last line %q", last)
	}
	if mid := draws[len(draws)/2]; !strings.Contains(mid, "100 rep/s") || !strings.Contains(mid, " left") {
		t.Errorf("a line on the way says no rate or time left: %q", mid)
	}

	// Stopped before it is full: the line as it stands, and a newline.
	out.Reset()
	b = newBar(&out, 10, func() int { return 80 })
	b.add(3)
	b.end()
	b.end()
	if s := out.String(); !strings.Contains(s, "3/10 rep") || !strings.HasSuffix(s, "\n") || strings.Count(s, "\n") != 1 {
		t.Errorf("stopped at 3 of 10: %q", s)
	}
}
