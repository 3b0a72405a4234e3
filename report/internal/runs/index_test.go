package runs

import "testing"

// TestQuickest: the least median among the points kept, the first in
// Find's order among equals, and none where nothing is kept.
func TestQuickest(t *testing.T) {
	key := func(alg string, w int) Key {
		return Key{Experiment: "e", Algorithm: alg, Workers: w, LenA: 10, LenB: 10}
	}
	ix := &Index{Stats: map[Key]Stat{
		key("a", 1):                    {N: 3, Med: 2},
		key("a", 2):                    {N: 3, Med: 1},
		key("b", 2):                    {N: 3, Med: 1},
		key("c", 4):                    {N: 3, Med: 0.5},
		{Experiment: "other", LenA: 1}: {N: 1, Med: 0.1},
	}}
	k, st, ok := ix.Quickest("e", func(k Key) bool { return k.Workers <= 2 })
	if !ok || k != key("a", 2) || st.Med != 1 {
		t.Errorf("workers <= 2: %+v %+v %v; want a on 2 workers, the first of the two at 1", k, st, ok)
	}
	if k, _, ok := ix.Quickest("e", nil); !ok || k != key("c", 4) {
		t.Errorf("every point: %+v %v; want c", k, ok)
	}
	if _, _, ok := ix.Quickest("e", func(k Key) bool { return k.Workers > 8 }); ok {
		t.Error("no point kept, yet ok")
	}
}
