package levtest

import (
	"fmt"
	"testing"

	"github.com/levlab/levlab/lev"
)

// RunAlign runs the suite through lev.Align and lev.AlignString: every
// input of every sub-test is aligned, and the alignment must pass
// CheckAlignment before its Distance is compared with what the case wants
// (the reference distance, or k+1 past a cap). opts are as for Run; the
// algorithm is Auto, the only one Align takes.
func RunAlign(t *testing.T, opts ...lev.Option) {
	t.Helper()
	run(t, lev.Auto, impl{bytes: alignBytes, text: alignText}, opts)
}

func alignBytes(a, b []byte, opts ...lev.Option) (int, error) {
	al, err := lev.Align(a, b, opts...)
	if err != nil {
		return 0, err
	}
	if msg := CheckAlignment(a, b, al, Reference(a, b)); msg != "" {
		return 0, fmt.Errorf("levtest: Align gave %s: %s", show(al.CIGAR()), msg)
	}
	return al.Distance, nil
}

func alignText(a, b string, opts ...lev.Option) (int, error) {
	al, err := lev.AlignString(a, b, opts...)
	if err != nil {
		return 0, err
	}
	if msg := CheckAlignment([]rune(a), []rune(b), al, ReferenceString(a, b)); msg != "" {
		return 0, fmt.Errorf("levtest: AlignString gave %s: %s", show(al.CIGAR()), msg)
	}
	return al.Distance, nil
}

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
