package cudaext

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// pairsCase is a many-pairs job and the answer it must give.
type pairsCase[S Symbol] struct {
	name string
	a, b [][]S // b nil: one set
	tri  bool
}

// check runs job (Pairs or PairsModel, with tiles of rows queries where it
// takes them) and compares every tile with refDistance: tiles in order,
// each of whole queries against every target, the pairs j <= i of a tri
// job left out.
func (pc pairsCase[S]) check(t *testing.T, job func(fn func(first int, d []int32) error) error, rows int) {
	t.Helper()
	b := pc.b
	if b == nil {
		b = pc.a
	}
	next, tiles := 0, 0
	err := job(func(first int, d []int32) error {
		tiles++
		if first != next {
			return fmt.Errorf("tile %d starts at query %d, want %d", tiles, first, next)
		}
		if len(d) == 0 || len(d)%len(b) != 0 {
			return fmt.Errorf("tile %d: %d distances, not whole queries of %d targets", tiles, len(d), len(b))
		}
		n := len(d) / len(b)
		if rows > 0 && n != min(rows, len(pc.a)-first) {
			return fmt.Errorf("tile %d: %d queries, want %d", tiles, n, min(rows, len(pc.a)-first))
		}
		for q, got := range d {
			i, j := first+q/len(b), q%len(b)
			if pc.tri && j <= i {
				continue
			}
			if want := refDistance(pc.a[i], b[j]); int(got) != want {
				return fmt.Errorf("query %d (%d symbols) against target %d (%d): %d, want %d", i, len(pc.a[i]), j, len(b[j]), got, want)
			}
		}
		next = first + n
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", pc.name, err)
	}
	if len(pc.a) > 0 && len(b) > 0 && next != len(pc.a) {
		t.Fatalf("%s: tiles ended at query %d of %d", pc.name, next, len(pc.a))
	}
}

// pairsCases are sets of mixed lengths (empty strings among them) over
// small and large alphabets: as one set, its pairs i < j, and against
// another set.
func pairsCases(rng *rand.Rand, n, maxLen int) []pairsCase[byte] {
	var cases []pairsCase[byte]
	for _, sigma := range []int{2, 4, 256} {
		set := func(k int) [][]byte {
			var s [][]byte
			for i := range k {
				l := rng.IntN(maxLen + 1)
				if i%7 == 3 {
					l = 0
				}
				s = append(s, randomSymbols(rng, l, sigma))
			}
			return s
		}
		a, b := set(n), set(n/2+1)
		cases = append(cases,
			pairsCase[byte]{name: fmt.Sprintf("σ=%d one set", sigma), a: a},
			pairsCase[byte]{name: fmt.Sprintf("σ=%d pairs i<j", sigma), a: a, tri: true},
			pairsCase[byte]{name: fmt.Sprintf("σ=%d cross", sigma), a: a, b: b})
	}
	return cases
}

// pairsSchedules are the model's geometries: the GPU's, and small ones
// under which short strings cross many bands.
var pairsSchedules = []FastSchedule{
	GPUSchedule(5, DefaultChunk),
	{Lanes: 3, WordBits: 5, Chunk: 4, Warps: 4},
	{Lanes: 2, WordBits: 64, Chunk: 1, Warps: 3},
}

func TestPairsModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	ctx := context.Background()
	for _, s := range pairsSchedules {
		for _, pc := range pairsCases(rng, 9, 90) {
			for _, rows := range []int{1, 4, 0} {
				pc.check(t, func(fn func(int, []int32) error) error {
					return PairsModel(ctx, pc.a, pc.b, pc.tri, s, rows, fn)
				}, rows)
			}
		}
	}
	// 32-bit symbols, more than 256 of them.
	wa := [][]uint32{{1 << 20, 5, 1 << 30, 5, 9}, {5, 1 << 20, 9}, nil, {7, 1000, 1001, 1002}}
	pc := pairsCase[uint32]{name: "32-bit symbols", a: wa, b: [][]uint32{{9, 9, 5}, {1 << 30}}}
	pc.check(t, func(fn func(int, []int32) error) error {
		return PairsModel(ctx, pc.a, pc.b, false, pairsSchedules[1], 1, fn)
	}, 1)
}

func TestPairsModelErrors(t *testing.T) {
	ctx := context.Background()
	a := [][]byte{[]byte("kitten"), []byte("sitting"), []byte("mitten")}
	s := pairsSchedules[0]
	ok := func(int, []int32) error { return nil }
	if err := PairsModel(ctx, a, a, true, s, 0, ok); err == nil {
		t.Error("tri with a second set: no error")
	}
	if err := PairsModel(ctx, a, nil, false, s, 0, nil); err == nil {
		t.Error("nil callback: no error")
	}
	if err := PairsModel(ctx, a, nil, false, FastSchedule{}, 0, ok); err == nil {
		t.Error("zero schedule: no error")
	}
	stop := errors.New("stop")
	calls := 0
	if err := PairsModel(ctx, a, nil, false, s, 1, func(int, []int32) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Errorf("callback error: %v after %d calls; want it back after one", err, calls)
	}
	cctx, cancel := context.WithCancel(ctx)
	calls = 0
	err := PairsModel(cctx, a, nil, false, s, 1, func(int, []int32) error { calls++; cancel(); return nil })
	if !errors.Is(err, context.Canceled) || calls != 1 {
		t.Errorf("canceled after the first tile: %v after %d calls; want context.Canceled after one", err, calls)
	}
	// A large alphabet over long strings: the tables would pass the limit.
	big := make([]uint32, 1<<20)
	for i := range big {
		big[i] = uint32(i)
	}
	if err := PairsModel(ctx, [][]uint32{big, big}, nil, false, s, 0, ok); !errors.Is(err, ErrTablesTooLarge) {
		t.Errorf("tables over the limit: %v, want ErrTablesTooLarge", err)
	}
}
