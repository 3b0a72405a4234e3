package experiments

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/levlab/levlab/records"
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
	// ReadFrom, on the report that finishes a point, names the
	// implementations whose runs its repetitions were read from
	// (Measurement.ReadFrom), where none ran here; empty where one did.
	ReadFrom []string
}

// noteRecorded is the Note of a point that an earlier run completed.
const noteRecorded = "recorded earlier"

// display shows progress on Out: a bar on a terminal, else one line per
// finished point. It runs between repetitions, never inside a timed call.
type display struct {
	bar   *bar
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
		fd := int(f.Fd())
		return &display{bar: newBar(out, todo, func() int {
			if w, _, err := term.GetSize(fd); err == nil && w > 0 {
				return w
			}
			return 80
		})}
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
		d.bar.describe(exp + " " + pointLabel(p))
	}
}

// rep is called after each recorded repetition.
func (d *display) rep() {
	if d != nil && d.bar != nil {
		d.bar.add(1)
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
			d.bar.add(untimed)
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
	case len(pr.ReadFrom) > 0:
		what = fmt.Sprintf("%d reps, read from %s's runs", pr.Reps, strings.Join(pr.ReadFrom, "'s and "))
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
	if d != nil && d.bar != nil {
		d.bar.end()
	}
}

// bar is the progress bar of a terminal: one line, redrawn in place
// after a \r at most every barEvery, as wide as the terminal less one
// column (a line that reached the last column would wrap on some
// terminals), ended by a newline when it is full or the run stops:
//
//	pairs myers 1000x1000  42% |██████         | 42/100 rep, 5.1 rep/s, 11s left
//
// It is used from the runner's goroutine only.
type bar struct {
	out   io.Writer
	width func() int       // the terminal's columns, read at each drawing
	now   func() time.Time // time.Now but in tests
	desc  string
	n     int // repetitions counted, at most total
	total int
	// shown is when the line was last drawn; drawn is its width, so that
	// a shorter line blanks what the longer one leaves.
	shown  time.Time
	drawn  int
	start  time.Time
	window []barSample // the recent counts the rate is taken over
	ended  bool
}

// barSample is a count and when it was reached.
type barSample struct {
	at time.Time
	n  int
}

const (
	barEvery  = 100 * time.Millisecond // the most often the line is drawn
	barKeep   = 500 * time.Millisecond // a count kept for the rate at most this often
	barWindow = 10                     // counts kept: a rate over the last 5 s or so
	barMin    = 10                     // the narrowest bar drawn; below, none
)

func newBar(out io.Writer, total int, width func() int) *bar {
	b := &bar{out: out, total: total, width: width, now: time.Now}
	b.start = b.now()
	b.window = []barSample{{b.start, 0}}
	return b
}

// describe names what is being timed; the line shows it when next drawn.
func (b *bar) describe(desc string) {
	b.desc = desc
	b.draw(false)
}

// add counts n more repetitions; the line that shows the last of them ends
// with a newline.
func (b *bar) add(n int) {
	if b.ended {
		return
	}
	b.n = min(b.n+n, b.total)
	now := b.now()
	if last := b.window[len(b.window)-1]; now.Sub(last.at) >= barKeep {
		b.window = append(b.window, barSample{now, b.n})
		if len(b.window) > barWindow {
			b.window = b.window[1:]
		}
	}
	if b.n >= b.total {
		b.end()
		return
	}
	b.draw(false)
}

// end draws the line as it stands and ends it, once.
func (b *bar) end() {
	if b.ended {
		return
	}
	b.draw(true)
	fmt.Fprintln(b.out)
	b.ended = true
}

// draw writes the line, unless it was drawn less than barEvery ago and
// force is false.
func (b *bar) draw(force bool) {
	if b.ended {
		return
	}
	now := b.now()
	if !force && !b.shown.IsZero() && now.Sub(b.shown) < barEvery {
		return
	}
	b.shown = now
	rate := 0.0
	if first := b.window[0]; now.Sub(first.at) > 0 {
		rate = float64(b.n-first.n) / now.Sub(first.at).Seconds()
	}
	line := barLine(b.desc, b.n, b.total, rate, now.Sub(b.start), b.width())
	w := utf8.RuneCountInString(line)
	if w < b.drawn {
		line += strings.Repeat(" ", b.drawn-w)
	}
	b.drawn = w
	io.WriteString(b.out, "\r"+line)
}

// barLine is the bar's line for n of total repetitions at rate a second,
// elapsed since the start, on a terminal width columns wide: at most
// width-1 runes. The counts come first, then the description, then the
// bar: the description is cut short (with "…") before the bar goes below
// barMin cells, the bar is left out before the description goes below a
// dozen runes, and the counts are cut last.
func barLine(desc string, n, total int, rate float64, elapsed time.Duration, width int) string {
	most := max(width-1, 1)
	pct := 100
	if total > 0 {
		pct = 100 * n / total
	}
	head := fmt.Sprintf("%3d%%", pct)
	tail := fmt.Sprintf("%d/%d rep", n, total)
	switch {
	case n >= total:
		tail += ", in " + shortDuration(elapsed)
	case rate > 0:
		left := "more than 99h"
		if secs := float64(total-n) / rate; secs < 99*3600 {
			left = shortDuration(time.Duration(secs * float64(time.Second)))
		}
		tail += ", " + rateText(rate) + ", " + left + " left"
	}
	// desc + " " + head + " |" + cells + "| " + tail: the bar needs
	// barMin cells beside the first descMin runes of the description, or
	// it is left out and the description has the room.
	const descMin = 12
	descW := utf8.RuneCountInString(desc)
	room := most - utf8.RuneCountInString(head) - utf8.RuneCountInString(tail) - 4
	if descW > 0 {
		room-- // the space after it
	}
	if room-min(descW, descMin) < barMin {
		line := head + " " + tail
		if r := most - utf8.RuneCountInString(line) - 1; descW > 0 && r >= 4 {
			line = cut(desc, r) + " " + line
		}
		return cut(line, most)
	}
	if descW > 0 {
		desc = cut(desc, room-barMin) + " "
	}
	cells := room - min(descW, room-barMin)
	full := cells * n / max(total, 1)
	if total == 0 {
		full = cells
	}
	return desc + head + " |" + strings.Repeat("█", full) + strings.Repeat(" ", cells-full) + "| " + tail
}

// cut shortens s to at most w runes, ending it with "…" when cut.
func cut(s string, w int) string {
	if utf8.RuneCountInString(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	r := []rune(s)
	return string(r[:w-1]) + "…"
}

// rateText is a rate of repetitions in a unit that keeps a digit or two.
func rateText(perSecond float64) string {
	switch {
	case perSecond >= 10:
		return fmt.Sprintf("%.0f rep/s", perSecond)
	case perSecond >= 1:
		return fmt.Sprintf("%.1f rep/s", perSecond)
	case perSecond*60 >= 1:
		return fmt.Sprintf("%.1f rep/min", perSecond*60)
	default:
		return fmt.Sprintf("%.1f rep/h", perSecond*3600)
	}
}

// shortDuration is d in whole seconds: 9s, 4m05s, 2h03m.
func shortDuration(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	default:
		return fmt.Sprintf("%dh%02dm", s/3600, s%3600/60)
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
