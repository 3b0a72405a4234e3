package cudaext

import "fmt"

// CountWindows counts, on the GPU, the positions j in [from, to) of text
// whose window matches pattern within k edits, with report 003's
// semantics: the window at j has size = min(len(pattern), len(text)-j)
// and matches when the Levenshtein distance between pattern[:size] and
// text[j:j+size] is at most k. Positions past from..to are read as context
// only: the device gets text[from : to+len(pattern)-1]. Patterns of up to
// 1024 bytes; one GPU thread per position. The error wraps ErrUnavailable
// where no GPU can be used.
func CountWindows(text, pattern []byte, k, from, to int) (int64, error) {
	switch {
	case len(pattern) == 0:
		return 0, fmt.Errorf("cudaext: CountWindows: empty pattern")
	case k < 0:
		return 0, fmt.Errorf("cudaext: CountWindows: k = %d must be >= 0", k)
	case len(pattern) > 64*windowWords:
		return 0, fmt.Errorf("cudaext: CountWindows: pattern of %d bytes: the GPU takes patterns of at most %d", len(pattern), 64*windowWords)
	case from < 0 || to > len(text) || from > to:
		return 0, fmt.Errorf("cudaext: CountWindows: range [%d, %d) is not within the text [0, %d)", from, to, len(text))
	}
	if err := Ready(); err != nil {
		return 0, err
	}
	if from == to {
		return 0, nil
	}
	end := min(to+len(pattern)-1, len(text))
	n, _, err := windows(text[from:end], int64(to-from), pattern, k)
	return n, err
}

// windowWords is the longest pattern the window kernel takes, in 64-bit
// words (LV_WIN_WORDS of kernels/windows.cu).
const windowWords = 16

// windowTable is the window kernel's match table of pattern:
// peq[c*words+w] has bit r set where pattern[64w+r] == c.
func windowTable(pattern []byte) ([]uint64, int) {
	words := (len(pattern) + 63) / 64
	peq := make([]uint64, 256*words)
	for i, c := range pattern {
		peq[int(c)*words+i/64] |= 1 << (i % 64)
	}
	return peq, words
}
