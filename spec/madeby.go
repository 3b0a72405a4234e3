package spec

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
)

// MadeBy returns what makes the records of implementation im of s: a hash
// of im's definition (every key of it; for a command, also the folder it
// runs in, which its relative paths start from) and of the inputs' case
// and alphabet. The lengths, workers and tile are a record's own columns.
// Two definitions that could time another program, or other inputs, do
// not share it; an implementation written in Go is known by its name
// alone.
func (s *Spec) MadeBy(im Impl) string {
	def := struct {
		Impl     Impl
		Dir      string `json:",omitempty"`
		Case     string
		Alphabet string
	}{Impl: im, Case: s.CaseOr(), Alphabet: s.Inputs.Alphabet}
	if len(im.Command) > 0 {
		def.Dir = s.Dir
		if abs, err := filepath.Abs(s.Dir); err == nil {
			def.Dir = abs
		}
	}
	b, err := json.Marshal(def) // map keys sorted: the same definition, the same bytes
	if err != nil {
		panic("spec: MadeBy: " + err.Error()) // strings, slices and a map of strings always marshal
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// SharedRuns returns the groups of s's impls, two or more each, whose
// commands are the same but for how their output is read —
// distance_regexp, time_regexp and time_unit, each impl of a group reading
// it its own way — in the spec's order: a program that prints the answers
// of several implementations. One run of it serves every impl of its
// group, each reading its own distance and time from that run's output.
// Impls that read one command the same way (a program timed twice) are in
// no group: each runs it itself.
func (s *Spec) SharedRuns() [][]string {
	type member struct{ name, reading string }
	groups := map[string][]member{}
	var order []string
	for _, im := range s.Impl {
		if len(im.Command) == 0 {
			continue
		}
		run := im
		run.Name, run.DistanceRegexp, run.TimeRegexp, run.TimeUnit = "", "", "", ""
		k := s.MadeBy(run)
		if groups[k] == nil {
			order = append(order, k)
		}
		reading := im.DistanceRegexp + "\x00" + im.TimeRegexp + "\x00" + cmp.Or(im.TimeUnit, "s")
		groups[k] = append(groups[k], member{im.Name, reading})
	}
	var out [][]string
	for _, k := range order {
		readers := map[string]int{}
		for _, m := range groups[k] {
			readers[m.reading]++
		}
		var g []string
		for _, m := range groups[k] {
			if readers[m.reading] == 1 {
				g = append(g, m.name)
			}
		}
		if len(g) > 1 {
			out = append(out, g)
		}
	}
	return out
}
