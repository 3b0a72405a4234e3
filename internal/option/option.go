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
