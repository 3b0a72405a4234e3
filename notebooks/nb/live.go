package nb

import (
	"errors"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/comms"
	"github.com/janpfeifer/gonb/gonbui/dom"
	"github.com/janpfeifer/gonb/gonbui/widgets"
	"github.com/levlab/levlab/report"
)

// ErrNoBrowser is returned by Explore when no browser answered: the
// notebook runs headless (nbconvert, a test), where a control cannot move.
var ErrNoBrowser = errors.New("nb: no browser answered, so the controls are not live")

// A Control is one knob of Explore: a slider from Min to Max, or, with
// Options, a select of them. Value is where it starts: the slider's value,
// or the index of the option. Show, if set, writes a slider's value for
// people (the default: the number with thousands separators).
type Control struct {
	Label    string
	Min, Max int
	Options  []string
	Value    int
	Show     func(int) string
}

// text is how the control's value v reads beside it.
func (c Control) text(v int) string {
	switch {
	case len(c.Options) > 0 && v >= 0 && v < len(c.Options):
		return c.Options[v]
	case c.Show != nil:
		return c.Show(v)
	}
	return report.Count(v)
}

// settle is how long Explore waits after a change for the next one before
// it runs: a slider dragged across its range sends many values, and only
// where it stops is worth the time.
const settle = 250 * time.Millisecond

// Explore shows the controls, each with its label and its current value,
// a Stop button and an output area under them; then it calls run with the
// controls' values (in their order) once, and again each time a control
// is moved, showing the HTML run returns, until Stop is pressed.
//
// Each value is the one its control's own change channel carried, so run
// always answers the move it was called for, never an earlier one; moves
// that come within settle of each other are run once, with the last
// values. run's HTML replaces the output area: a chart in it (FigureHTML)
// is drawn each time.
//
// It waits up to wait for the browser to draw the controls. Where none
// answers it shows a note saying how to use the cell live and returns
// ErrNoBrowser, so that running every cell headless never hangs.
func Explore(wait time.Duration, controls []Control, run func(values []int) string) error {
	return ExploreSaying(wait, controls, nil, run)
}

// ExploreSaying is Explore with a word before each run: the moment the
// controls settle, a line above the output shows say(values) — what is
// about to be timed and how long it should take, or why it will be
// refused — and the output below stays until run answers; then the line
// goes. A nil say says "running…".
func ExploreSaying(wait time.Duration, controls []Control, say, run func(values []int) string) error {
	if len(controls) == 0 {
		return errors.New("nb: Explore needs at least one control")
	}
	for _, c := range controls {
		if len(c.Options) == 0 && c.Min > c.Max {
			return fmt.Errorf("nb: control %q: min %d is above max %d", c.Label, c.Min, c.Max)
		}
	}
	id := "explore-" + gonbui.UniqueId()
	var rows strings.Builder
	rows.WriteString(`<div id="` + id + `" style="display:grid;grid-template-columns:max-content 24em max-content;gap:6px 12px;align-items:center">`)
	for i, c := range controls {
		fmt.Fprintf(&rows, `<b>%s</b><span id="%s-c%d"></span><span id="%s-v%d" style="font-variant-numeric:tabular-nums">%s</span>`,
			html.EscapeString(c.Label), id, i, id, i, html.EscapeString(c.text(c.Value)))
	}
	rows.WriteString(`<span></span><span id="` + id + `-stop"></span><span></span></div>`)
	// Shown under an id, so that without a browser the note replaces it.
	gonbui.UpdateHtml(id+"-grid", rows.String())

	// Building a control waits for the browser's first word from it;
	// without a browser it would wait for ever.
	chans := make([]*comms.AddressChan[int], len(controls))
	var stop *comms.AddressChan[int]
	built := make(chan struct{})
	go func() {
		for i, c := range controls {
			parent := fmt.Sprintf("%s-c%d", id, i)
			if len(c.Options) > 0 {
				s := widgets.Select(c.Options).SetDefault(c.Value).AppendTo(parent).Done()
				chans[i] = s.Listen().LatestOnly()
			} else {
				s := widgets.Slider(c.Min, c.Max, c.Value).AppendTo(parent).Done()
				chans[i] = s.Listen().LatestOnly()
			}
		}
		stop = widgets.Button("Stop").AppendTo(id + "-stop").Done().Listen()
		close(built)
	}()
	select {
	case <-built:
	case <-time.After(wait):
		gonbui.UpdateHtml(id+"-grid", NoteHTML("No browser answered within %v, so these controls are not live: this cell is for a notebook open in a browser (make notebooks), where moving a control runs it again.", wait))
		gonbui.Sync()
		return ErrNoBrowser
	}

	out := id + "-out"
	values := make([]int, len(controls))
	for i, c := range controls {
		values[i] = c.Value
	}
	status := id + "-status"
	// runNow says what is about to run, above the output, runs it, and
	// clears the line.
	runNow := func(values []int) {
		word := "running…"
		if say != nil {
			word = say(values)
		}
		gonbui.UpdateHtml(status, NoteHTML("%s", word))
		gonbui.UpdateHtml(out, run(values))
		gonbui.UpdateHtml(status, "")
	}
	gonbui.UpdateHtml(status, "")
	gonbui.UpdateHtml(out, "")
	runNow(values)
	moved := make(chan struct{ i, v int })
	for i, ch := range chans {
		go func() {
			for v := range ch.C {
				moved <- struct{ i, v int }{i, v}
			}
		}()
	}
	// take records a move and shows its value beside its control.
	take := func(m struct{ i, v int }) {
		values[m.i] = m.v
		dom.SetInnerText(fmt.Sprintf("%s-v%d", id, m.i), controls[m.i].text(m.v))
	}
	for {
		select {
		case <-stop.C:
			dom.SetInnerText(id+"-stop", "stopped")
			return nil
		case m := <-moved:
			take(m)
			// Take the moves that follow within settle as one.
			for quiet := false; !quiet; {
				select {
				case m := <-moved:
					take(m)
				case <-time.After(settle):
					quiet = true
				}
			}
			runNow(values)
		}
	}
}
