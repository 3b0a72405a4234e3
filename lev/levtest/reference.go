package levtest

// Reference returns the Levenshtein distance between a and b compared byte by
// byte. It is the plain two-row Wagner–Fischer recurrence, with D[i][j] the
// distance between a[:i] and b[:j]:
//
//	D[i][0] = i, D[0][j] = j
//	D[i][j] = D[i-1][j-1]                                  if a[i-1] == b[j-1]
//	D[i][j] = 1 + min(D[i-1][j-1], D[i-1][j], D[i][j-1])   otherwise
//
// O(len(a)·len(b)) time, O(len(b)) memory. It is slow on purpose: nothing
// clever, so that it can be trusted.
func Reference(a, b []byte) int { return reference(a, b) }

// ReferenceRunes is Reference over runes.
func ReferenceRunes(a, b []rune) int { return reference(a, b) }

// ReferenceString returns the distance between a and b counted in runes, as
// lev.DistanceString defines it: each invalid UTF-8 byte is one U+FFFD, as
// in a for-range loop (which is what the []rune conversion does).
func ReferenceString(a, b string) int { return reference([]rune(a), []rune(b)) }

func reference[S comparable](a, b []S) int {
	prev := make([]int, len(b)+1) // row i-1
	cur := make([]int, len(b)+1)  // row i
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1]
			} else {
				cur[j] = 1 + min(prev[j-1], prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
