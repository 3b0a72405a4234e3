package report

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"
)

// The words and phrases the sections share: counts and plurals, on which
// machine a table is, the values of several machines said once.

// plural is a noun's ending for n of it: "" for one, else "s".
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// workersN is n workers in words: "1 worker", "2 workers".
func workersN(n int) string { return document.Count(n) + " worker" + plural(n) }

// onName returns " on <machine>" when the report reads several runs.
func onName(r *runs.Set, ix *runs.Index) string {
	if len(r.Runs) < 2 {
		return ""
	}
	return " on " + ix.Name
}

// upperFirst returns s with its first letter in upper case.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// allSame reports whether every string of ss is the first.
func allSame(ss []string) bool {
	for _, s := range ss {
		if s != ss[0] {
			return false
		}
	}
	return true
}

// shared joins a finding's values, one a machine (each ending "on <machine>"
// where there are several), after their contexts: said once where every
// machine's is the same, else before each value.
func shared(ctxs, vals []string) string {
	if len(vals) == 0 {
		return ""
	}
	if allSame(ctxs) {
		return strings.TrimSpace(ctxs[0] + " " + strings.Join(vals, ", "))
	}
	out := make([]string, len(vals))
	for i := range vals {
		out[i] = strings.TrimSpace(ctxs[i] + " " + vals[i])
	}
	return strings.Join(out, "; ")
}
