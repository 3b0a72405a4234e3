package levtest

import (
	"fmt"

	"github.com/levlab/levlab/lev"
)

// CheckAlignment says what is wrong with al as an alignment of a and b,
// whose distance is d, or returns "": its edits must be runs (a positive
// length, no two neighbours of one op) that walk both sequences to their
// ends, OpMatch only on equal symbols and OpSubst only on unequal ones,
// and cost d, which al.Distance must say too. An alignment with no edits
// and a positive Distance is one past a cap (WithMax(al.Distance−1)): it
// is right only if d is past that cap.
func CheckAlignment[S comparable](a, b []S, al lev.Alignment, d int) string {
	if al.Edits == nil && al.Distance > 0 {
		if d < al.Distance {
			return fmt.Sprintf("no edits and distance %d, but the distance is %d", al.Distance, d)
		}
		return ""
	}
	i, j := 0, 0
	for k, e := range al.Edits {
		if e.Len < 1 || (k > 0 && al.Edits[k-1].Op == e.Op) {
			return fmt.Sprintf("edit %d (%d%c) is not a run of its own", k, e.Len, e.Op)
		}
		for range e.Len {
			switch e.Op {
			case lev.OpMatch, lev.OpSubst:
				if i >= len(a) || j >= len(b) {
					return fmt.Sprintf("edit %d (%c) walks past an end", k, e.Op)
				}
				if (a[i] == b[j]) != (e.Op == lev.OpMatch) {
					return fmt.Sprintf("edit %d: %c on a[%d] and b[%d]", k, e.Op, i, j)
				}
				i, j = i+1, j+1
			case lev.OpIns:
				if i >= len(a) {
					return fmt.Sprintf("edit %d (I) walks past a's end", k)
				}
				i++
			case lev.OpDel:
				if j >= len(b) {
					return fmt.Sprintf("edit %d (D) walks past b's end", k)
				}
				j++
			default:
				return fmt.Sprintf("edit %d: unknown op %q", k, e.Op)
			}
		}
	}
	switch {
	case i != len(a) || j != len(b):
		return fmt.Sprintf("stops at a[%d] and b[%d], before the ends %d and %d", i, j, len(a), len(b))
	case al.Cost() != d:
		return fmt.Sprintf("costs %d, the distance is %d", al.Cost(), d)
	case al.Distance != d:
		return fmt.Sprintf("says distance %d, the distance is %d", al.Distance, d)
	}
	return ""
}
