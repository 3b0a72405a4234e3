package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const shapes = `name = "shapes"

[inputs]
n = [10, 200]

[[impl]]
name    = "args"
command = ["./ed_args", "{a:text}", "--b={b:text}"]

[[impl]]
name    = "menu"
command = ["./ed_menu"]
stdin   = "1\n{a:text}\n{b:text}\n3\n"

[[impl]]
name    = "file"
command = ["./ed_file", "{input}"]
input   = "{n} {m}\n{a:text}\n{b:text}\n"

[[impl]]
name    = "seeded"
command = ["./ed_seeded", "-f", "{a}", "{b}"]
time_regexp = 'time: ([0-9.]+) ms'
time_unit   = "ms"
`

// The keys of the program shapes: the strings as arguments, stdin, one
// input file, a time in milliseconds.
func TestParseShapes(t *testing.T) {
	s, err := Parse("shapes.toml", []byte(shapes))
	if err != nil {
		t.Fatal(err)
	}
	if s.Impl[1].Stdin != "1\n{a:text}\n{b:text}\n3\n" || s.Impl[2].Input != "{n} {m}\n{a:text}\n{b:text}\n" || s.Impl[3].TimeUnit != "ms" {
		t.Errorf("impls %+v", s.Impl)
	}
	for i, want := range [][2]bool{{true, true}, {true, false}, {true, false}, {false, false}} {
		if any, args := s.Impl[i].UsesText(); any != want[0] || args != want[1] {
			t.Errorf("impl %s: UsesText %v %v, want %v", s.Impl[i].Name, any, args, want)
		}
	}
	b, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("kept.toml", b)
	if err != nil || back.Impl[1].Stdin != s.Impl[1].Stdin || back.Impl[3].TimeUnit != "ms" {
		t.Errorf("read back: %v %+v", err, back)
	}
}

func TestParseShapesBad(t *testing.T) {
	replace := func(old, new string) string {
		if !strings.Contains(shapes, old) {
			t.Fatalf("the spec has no %q", old)
		}
		return strings.Replace(shapes, old, new, 1)
	}
	for _, c := range []struct {
		name, text string
		line       int
		want       []string
	}{
		{"time unit", replace(`time_unit   = "ms"`, `time_unit   = "min"`), 24, []string{`time_unit = "min"`, "s, ms, us, ns"}},
		{"time unit without a regexp", replace("time_regexp = 'time: ([0-9.]+) ms'\n", ""), 23, []string{`time_unit = "ms"`, "no time_regexp"}},
		{"input without {input}", replace(`"{input}"]`, `"{a}"]`), 18, []string{"input", "no {input}"}},
		{"{input} without input", replace("input   = \"{n} {m}\\n{a:text}\\n{b:text}\\n\"\n", ""), 17, []string{"{input}", "there is no input"}},
		{"{input} in stdin", replace(`stdin   = "1\n`, `stdin   = "{input}\n`), 13, []string{"{input}", "no placeholder"}},
		{"a typo in stdin", replace(`stdin   = "1\n{a:text}`, `stdin   = "1\n{a:txt}`), 13, []string{"{a:txt}", "no placeholder"}},
		{"a NUL among the symbols", replace("n = [10, 200]", "alphabet = \"ab\\u0000\"\nn = [10, 200]"), 0, []string{`impl "args"`, "NUL", "{a} {b}"}},
		{"longer than an argument", replace("n = [10, 200]", "n = [10, 200000]"), 0, []string{`impl "args"`, "131071 bytes", "n = 200000"}},
		{"stdin for an algo", replace(`command = ["./ed_menu"]`, `algo = "myers"`), 0, []string{`impl "menu"`, "for a command"}},
		{"input_name without input", replace(`stdin   = "1\n`, "input_name = \"input.txt\"\n"+`stdin   = "1\n`), 13, []string{`input_name = "input.txt"`, "there is no input"}},
		{"input_name a path", replace(`input   = "{n}`, "input_name = \"in/input.txt\"\n"+`input   = "{n}`), 18, []string{`"in/input.txt"`, "not a path"}},
		{"input_name b", replace(`input   = "{n}`, "input_name = \"b\"\n"+`input   = "{n}`), 18, []string{`input_name = "b"`, "{a} and {b}"}},
		{"input without {input} or input_name", replace(`"{input}"]`, `"{a}"]`), 18, []string{"no {input}", "input_name"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("shapes.toml", []byte(c.text))
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T), want an *Error", err, err)
			}
			if c.line > 0 && se.Line != c.line {
				t.Errorf("at line %d, want %d: %v", se.Line, c.line, err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
	// A file of a fixed name needs no {input} in the command.
	fixed := replace(`command = ["./ed_file", "{input}"]`, `command = ["./ed_fixed"]`+"\ninput_name = \"input.txt\"")
	if sp, err := Parse("shapes.toml", []byte(fixed)); err != nil || sp.Impl[2].InputName != "input.txt" {
		t.Errorf("input_name: %v", err)
	}
	// The strings long past an argument, on stdin and in a file: allowed.
	s := strings.Replace(shapes, "n = [10, 200]", "n = [10, 200000]", 1)
	s = s[:strings.Index(s, "[[impl]]")] + s[strings.Index(s, "[[impl]]\nname    = \"menu\""):]
	if _, err := Parse("shapes.toml", []byte(s)); err != nil {
		t.Errorf("long strings on stdin and in a file: %v", err)
	}
}

// A spec without the keys added since (stdin, input, time_unit) is made
// by what it was made by before: its records stay its own.
func TestMadeByUnchanged(t *testing.T) {
	s, err := Parse("my.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	s.Dir = "/work/x"
	// The implementation as it was hashed before the new keys.
	type before struct {
		Name           string            `toml:"name"`
		Command        []string          `toml:"command,omitempty"`
		Env            map[string]string `toml:"env,omitempty"`
		Algo           string            `toml:"algo,omitempty"`
		DistanceRegexp string            `toml:"distance_regexp,omitempty"`
		TimeRegexp     string            `toml:"time_regexp,omitempty"`
	}
	for _, im := range s.Impl {
		def := struct {
			Impl     before
			Dir      string `json:",omitempty"`
			Case     string
			Alphabet string
		}{Impl: before{im.Name, im.Command, im.Env, im.Algo, im.DistanceRegexp, im.TimeRegexp}, Case: s.CaseOr(), Alphabet: s.Inputs.Alphabet}
		if len(im.Command) > 0 {
			def.Dir = s.Dir
		}
		b, _ := json.Marshal(def)
		sum := sha256.Sum256(b)
		if got, want := s.MadeBy(im), hex.EncodeToString(sum[:8]); got != want {
			t.Errorf("impl %s: MadeBy %s, was %s", im.Name, got, want)
		}
	}
	im := s.Impl[0]
	im.TimeUnit = "ms"
	if s.MadeBy(im) == s.MadeBy(s.Impl[0]) {
		t.Error("a time_unit set does not change MadeBy")
	}
	im = s.Impl[0]
	im.InputName = "input.txt"
	if s.MadeBy(im) == s.MadeBy(s.Impl[0]) {
		t.Error("an input_name set does not change MadeBy")
	}
}
