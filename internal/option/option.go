// Package option holds what the options of lev and match share: the error
// every bad option value wraps, and the stable names of their enums.
package option

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalid is exported by lev and match as ErrInvalidOption: one value,
// so that errors.Is answers the same whichever package's name is used.
var ErrInvalid = errors.New("invalid option")

// Names gives an enum of small integers its stable names, the strings of
// the command line, the CSV files and encoding.TextMarshaler: names[v] is
// the name of v.
type Names[T ~uint8] struct {
	pkg   string // prefixes errors: "lev"
	typ   string // the Go type, for a value without a name: "Algorithm"
	what  string // the enum in errors: "algorithm", "match mode"
	names []string
}

// NewNames returns the names of an enum whose values are 0 … len(names)−1:
// errors start with pkg and call a value a what; a value without a name is
// written typ(v).
func NewNames[T ~uint8](pkg, typ, what string, names ...string) Names[T] {
	return Names[T]{pkg: pkg, typ: typ, what: what, names: names}
}

// Valid reports whether v has a name.
func (n Names[T]) Valid(v T) bool { return int(v) < len(n.names) }

// String returns v's name, or What(v) for a value without one.
func (n Names[T]) String(v T) string {
	if n.Valid(v) {
		return n.names[v]
	}
	return fmt.Sprintf("%s(%d)", n.typ, uint8(v))
}

// List returns the names joined by ", ", for errors that say what is valid.
func (n Names[T]) List() string { return strings.Join(n.names, ", ") }

// All returns every value in order.
func (n Names[T]) All() []T {
	all := make([]T, len(n.names))
	for i := range all {
		all[i] = T(i)
	}
	return all
}

// Parse returns the value named name, or an error wrapping ErrInvalid that
// lists the valid names.
func (n Names[T]) Parse(name string) (T, error) {
	for i, s := range n.names {
		if s == name {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("%s: %w: %s %q is unknown; valid: %s", n.pkg, ErrInvalid, n.what, name, n.List())
}

// Unknown returns the error for a value without a name, as WithAlgorithm
// and the like report it.
func (n Names[T]) Unknown(v T) error {
	return fmt.Errorf("%s: %w: %s %d is unknown; valid: %s", n.pkg, ErrInvalid, n.what, uint8(v), n.List())
}

// Marshal implements MarshalText for v.
func (n Names[T]) Marshal(v T) ([]byte, error) {
	if !n.Valid(v) {
		return nil, n.Unknown(v)
	}
	return []byte(n.names[v]), nil
}

// Unmarshal implements UnmarshalText into *v.
func (n Names[T]) Unmarshal(v *T, text []byte) error {
	p, err := n.Parse(string(text))
	if err != nil {
		return err
	}
	*v = p
	return nil
}

// Errs keeps the first error of a call's options; lev's and match's
// configs embed it, Pkg set to their name.
type Errs struct {
	Pkg string
	Err error
}

// Set keeps err if no error came before it.
func (e *Errs) Set(err error) {
	if e.Err == nil {
		e.Err = err
	}
}

// Fail keeps, if it is the first, an error wrapping ErrInvalid:
// "Pkg: invalid option: " and then format.
func (e *Errs) Fail(format string, args ...any) {
	e.Set(fmt.Errorf(e.Pkg+": %w: "+format, append([]any{ErrInvalid}, args...)...))
}

// Workers reports whether n is a worker count in [0, most] (0 meaning
// GOMAXPROCS), failing otherwise.
func (e *Errs) Workers(n, most int) bool {
	if n < 0 || n > most {
		e.Fail("workers = %d is out of range [0, %d] (0 means GOMAXPROCS)", n, most)
		return false
	}
	return true
}
