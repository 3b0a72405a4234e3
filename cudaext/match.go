package cudaext

import "fmt"

// CountWindows counts, on the GPU, the positions j in [from, to) of text
// whose window matches pattern within k edits, with report 003's
// semantics: the window at j has size = min(len(pattern), len(text)-j)
// and matches when the Levenshtein distance between pattern[:size] and
// text[j:j+size] is at most k. Positions past from..to are read as context
// only. The error wraps ErrUnavailable where no GPU can be used.
func CountWindows(text, pattern []byte, k, from, to int) (int64, error) {
	switch {
	case len(pattern) == 0:
		return 0, fmt.Errorf("cudaext: CountWindows: empty pattern")
	case k < 0:
		return 0, fmt.Errorf("cudaext: CountWindows: k = %d must be >= 0", k)
	case from < 0 || to > len(text) || from > to:
		return 0, fmt.Errorf("cudaext: CountWindows: range [%d, %d) is not within the text [0, %d)", from, to, len(text))
	}
	if err := Available(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("%w: no window kernel in this build", ErrUnavailable)
}
