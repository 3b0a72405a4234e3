package main

import "strconv"

// The words the commands' messages share.

// plural is n of a thing in words: "1 run", "3 runs".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
