package experiments

import (
	"strings"
	"testing"
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
