package progrun

import (
	"errors"
	"strconv"
)

// Kind is what went wrong in a run that gave no answer, or a wrong one.
type Kind int

const (
	// Start: the program did not start — no program, a time unit Options
	// does not know, its standard input not written, exec's error.
	Start Kind = iota + 1
	// Inputs: a Command could not write a run's files (a, b, input).
	Inputs
	// Timeout: it ran past its time-out and was killed.
	Timeout
	// Canceled: the run's context was done, and it was stopped.
	Canceled
	// Signal: it was killed by a signal.
	Signal
	// Exit: it exited with a status other than 0 (or its exit could not
	// be read).
	Exit
	// Output: it printed more than MaxOutput on stdout, and was stopped.
	Output
	// NoDistance: it exited 0 but printed no distance.
	NoDistance
	// BadDistance: the distance it printed is no integer, or out of an
	// int's range.
	BadDistance
	// NoTime: it printed no time where Options.Time looks for one.
	NoTime
	// BadTime: the time it printed is no number, or outside (0, Wall].
	BadTime
	// WrongDistance: it printed a distance other than the one the case
	// wants (Case.Want).
	WrongDistance
)

var kindNames = [...]string{
	Start: "start", Inputs: "inputs", Timeout: "timeout", Canceled: "canceled", Signal: "signal", Exit: "exit",
	Output: "output", NoDistance: "no distance", BadDistance: "bad distance", NoTime: "no time", BadTime: "bad time",
	WrongDistance: "wrong distance",
}

func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind " + strconv.Itoa(int(k))
}

// Error is why a run gave no answer, or a wrong one: the failure as
// levlab says it, and its Kind.
type Error struct {
	Kind Kind
	// Msg is the failure in words, as levlab prints and records it: "ran
	// past its time-out of 10s and was killed", "exited with status 1:
	// …", with what else happened (Result.Note) after a "; ".
	Msg string
	// Err is the error beneath, where there is one: exec's, the file
	// system's, the context's.
	Err error
}

func (e *Error) Error() string { return e.Msg }

func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the Kind of the *Error err is or wraps, or 0 where it is
// none (nil included).
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}
