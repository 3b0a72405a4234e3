package experiments

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/levlab/levlab/records"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress is what the runner reports after each timed repetition, and once
// for each point it finishes without timing (skipped, or recorded by an
// earlier run). Counts are over the whole Run, every experiment included.
type Progress struct {
	Experiment string
	Point      Point
	// Rep is the repetition just recorded (1..Reps); for a point recorded
	// earlier it is the number of repetitions found, and 0 for a skipped
	// point.
	Rep, Reps int
	// DonePoints counts the points finished so far, this one included when
	// this report finishes it; TotalPoints is every point of the run.
	DonePoints, TotalPoints int
	Skipped                 bool
	// Failed is set for a point whose implementation failed (ErrFailed).
	Failed bool
	// Note says why a point was skipped or failed, or "recorded earlier".
	Note string
}

// noteRecorded is the Note of a point that an earlier run completed.
const noteRecorded = "recorded earlier"

// display shows progress on Out: a bar on a terminal, else one line per
// finished point. It runs between repetitions, never inside a timed call.
type display struct {
	bar   *progressbar.ProgressBar
	lines io.Writer       // when Out is not a terminal
	start time.Time       // of the current point, for its line
	said  map[string]bool // skip causes already written in full (records.SkipCause)
	// resumed counts the points recorded earlier since the last line, the
	// first of them numbered resumedAt: said in one line, not one each.
	resumed, resumedAt, total int
}

// newDisplay returns nil when out is nil. todo is the number of
// repetitions the run will time.
func newDisplay(out io.Writer, todo int) *display {
	if out == nil {
		return nil
	}
	if f, ok := out.(*os.File); ok && todo > 0 && term.IsTerminal(int(f.Fd())) {
		return &display{bar: progressbar.NewOptions(todo,
			progressbar.OptionSetWriter(out),
			progressbar.OptionShowCount(),
			progressbar.OptionSetItsString("rep"),
			progressbar.OptionShowIts(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionFullWidth(),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(out) }),
		)}
	}
	return &display{lines: out}
}

// begin is called before a point's inputs are made.
func (d *display) begin(exp string, p Point) {
	if d == nil {
		return
	}
	d.start = time.Now()
	if d.bar != nil {
		d.bar.Describe(exp + " " + pointLabel(p))
	}
}

// rep is called after each recorded repetition.
func (d *display) rep() {
	if d != nil && d.bar != nil {
		d.bar.Add(1)
	}
}

// done is called when a point is finished; untimed is the number of the
// point's planned repetitions that were not timed (it was skipped).
func (d *display) done(pr Progress, untimed int) {
	if d == nil {
		return
	}
	if d.bar != nil {
		if untimed > 0 {
			d.bar.Add(untimed)
		}
		return
	}
	var what string
	switch {
	case pr.Failed:
		what = pr.Note // ErrFailed's text starts it
	case pr.Skipped:
		what = pr.Note // ErrSkipped's text starts it
		if !strings.HasPrefix(what, ErrSkipped.Error()) {
			what = ErrSkipped.Error() + ": " + what
		}
		// A reason is written in full once; every GPU point of a machine
		// without one would repeat the same lines of the CUDA loader.
		cause, detail := records.SkipCause(pr.Note)
		if k := cause + ": " + detail; d.said[k] {
			what = ErrSkipped.Error() + ", for the reason above"
		} else {
			if d.said == nil {
				d.said = map[string]bool{}
			}
			d.said[k] = true
		}
	case pr.Note == noteRecorded:
		if d.resumed == 0 {
			d.resumedAt = pr.DonePoints
		}
		d.resumed, d.total = d.resumed+1, pr.TotalPoints
		return
	default:
		what = fmt.Sprintf("%d reps in %s", pr.Reps, time.Since(d.start).Round(time.Millisecond))
	}
	d.flushResumed()
	fmt.Fprintf(d.lines, "[%d/%d] %s %s: %s\n", pr.DonePoints, pr.TotalPoints, pr.Experiment, pointLabel(pr.Point), what)
}

// flushResumed writes the line of the points recorded earlier that were
// not yet said: "[1-40/345] 40 points recorded earlier, not timed again".
func (d *display) flushResumed() {
	switch {
	case d.resumed == 1:
		fmt.Fprintf(d.lines, "[%d/%d] 1 point %s, not timed again\n", d.resumedAt, d.total, noteRecorded)
	case d.resumed > 1:
		fmt.Fprintf(d.lines, "[%d-%d/%d] %d points %s, not timed again\n", d.resumedAt, d.resumedAt+d.resumed-1, d.total, d.resumed, noteRecorded)
	}
	d.resumed = 0
}

// finish ends the bar's line when the run stopped before the bar was full
// (a full bar ends it itself).
func (d *display) finish() {
	if d != nil && d.lines != nil {
		d.flushResumed()
	}
	if d != nil && d.bar != nil && !d.bar.IsFinished() {
		d.bar.Exit()
	}
}

// pointLabel is a short human form of a point, omitting defaults.
func pointLabel(p Point) string {
	parts := []string{p.Algorithm}
	if p.Workers != 0 {
		parts = append(parts, fmt.Sprintf("w=%d", p.Workers))
	}
	if p.Tile != 0 {
		parts = append(parts, fmt.Sprintf("tile=%d", p.Tile))
	}
	if p.Block != 0 {
		parts = append(parts, fmt.Sprintf("block=%d", p.Block))
	}
	if p.GPURatio != 0 {
		parts = append(parts, fmt.Sprintf("gpu=%g", p.GPURatio))
	}
	if p.Ranks != 0 {
		parts = append(parts, fmt.Sprintf("ranks=%d", p.Ranks))
	}
	if p.Case != "" {
		parts = append(parts, p.Case)
	}
	parts = append(parts, fmt.Sprintf("%dx%d", p.LenA, p.LenB))
	return strings.Join(parts, " ")
}
