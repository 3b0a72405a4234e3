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
