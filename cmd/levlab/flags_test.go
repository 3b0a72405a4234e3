package main

import "testing"

// A flag's value that does not parse is named with the flag, quoted, and
// what the flag takes, as the commands' own checks name theirs.
func TestFlagValueErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"distance", "--workers", "NaN", "a", "b"}, `--workers "NaN": want a whole number`},
		{[]string{"distance", "--workers", "99999999999999999999", "a", "b"}, `--workers "99999999999999999999": out of range; want a whole number`},
		{[]string{"distance", "--json=maybe", "a", "b"}, `--json "maybe": want true or false`},
		{[]string{"verify", "--timeout", "1.5", "--", "true"}, `--timeout "1.5": want a duration with its unit, such as 500ms, 10s or 2m`},
		{[]string{"verify", "--seed", "-3", "--", "true"}, `--seed "-3": want a whole number, 0 or more`},
		{[]string{"matrix", "--top", "", "words"}, `--top "": want a whole number`},
		// Not a value: the flag package's own words stay.
		{[]string{"distance", "--nosuch", "a", "b"}, "flag provided but not defined: -nosuch"},
	} {
		checkFailure(t, c.args, exitUsage, c.want)
	}
}
