package lev

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// chanRanks are ranks in one process, for the tests: rank r of size
// goroutines each calling the distance, their messages queued per
// sender, receiver and tag.
type chanRanks struct {
	hub  *chanHub
	rank int
}

type chanHub struct {
	size int
	mu   sync.Mutex
	q    map[[3]int]chan []byte
	sent map[int]int // messages sent under each tag
}

func newChanHub(size int) *chanHub {
	return &chanHub{size: size, q: map[[3]int]chan []byte{}, sent: map[int]int{}}
}

func (h *chanHub) queue(from, to, tag int) chan []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := [3]int{from, to, tag}
	if h.q[k] == nil {
		h.q[k] = make(chan []byte, 1<<14)
	}
	return h.q[k]
}

func (r chanRanks) Rank() int { return r.rank }
func (r chanRanks) Size() int { return r.hub.size }

func (r chanRanks) Send(to, tag int, b []byte) error {
	if len(b) == 0 {
		return errors.New("an empty message")
	}
	r.hub.mu.Lock()
	r.hub.sent[tag]++
	r.hub.mu.Unlock()
	r.hub.queue(r.rank, to, tag) <- append([]byte(nil), b...)
	return nil
}

func (r chanRanks) Recv(from, tag int, b []byte) error {
	m := <-r.hub.queue(from, r.rank, tag)
	if len(m) != len(b) {
		return fmt.Errorf("rank %d from %d, tag %d: a message of %d bytes, %d expected", r.rank, from, tag, len(m), len(b))
	}
	copy(b, m)
	return nil
}

// overRanks runs f as ranks 0 … size−1 at once and returns what each
// returned.
func overRanks(size int, f func(r Ranks) (int, error)) ([]int, []error, *chanHub) {
	hub := newChanHub(size)
	ds, errs := make([]int, size), make([]error, size)
	var wg sync.WaitGroup
	for r := range size {
		wg.Go(func() { ds[r], errs[r] = f(chanRanks{hub, r}) })
	}
	wg.Wait()
	for k, q := range hub.q {
		if len(q) > 0 {
			errs[0] = errors.Join(errs[0], fmt.Errorf("%d messages %v left unread", len(q), k))
		}
	}
	return ds, errs, hub
}

// TestRanksRandom: a distance over 2 to 5 ranks of 1 to 3 workers each,
// every kernel, in the band, without it and under a cap, equals the
// single process's and the reference, on every rank; and every message
// sent is read.
func TestRanksRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 3))
	iters := 60
	if raceEnabled || testing.Short() {
		iters = 12
	}
	for it := range iters {
		sigma := []int{2, 4, 26, 256}[it%4]
		maxLen := []int{300, 1500, 5000}[it%3]
		a, b := myersPair(r, maxLen, sigma, it%2 == 0)
		size, workers := 2+r.IntN(4), 1+r.IntN(3)
		kernel := availableKernels()[r.IntN(len(availableKernels()))]
		c := &config{ctx: context.Background(), kernel: kernel, tile: []int{0, 0, 7, 300}[r.IntN(4)], bundle: r.IntN(4)}
		switch it % 5 {
		case 3:
			c.noBand = true
		case 4:
			c.capped, c.maxD = true, abs(len(a)-len(b))+r.IntN(1+max(len(a), len(b)))
		}
		want, err := myersDistance(a, b, c, workers)
		if err != nil {
			t.Fatal(err)
		}
		if len(a) <= 1500 && len(b) <= 1500 && !c.capped {
			if ref := dpReference(a, b); ref != want {
				t.Fatalf("it %d: one process %d, reference %d", it, want, ref)
			}
		}
		what := fmt.Sprintf("it %d: %d×%d, σ %d, %d ranks × %d workers, kernel %s, tile %d, units of %d groups, noBand %v, cap %v %d",
			it, len(a), len(b), sigma, size, workers, kernel, c.tile, c.bundle, c.noBand, c.capped, c.maxD)
		ds, errs, hub := overRanks(size, func(rk Ranks) (int, error) {
			rc := *c
			rc.ranks = rk
			return myersDistance(a, b, &rc, workers)
		})
		// Under a cap a value past k says only "more than k": one process
		// may take the trimmed pass, which ranks do not (capAt, as
		// Distance does).
		limit := c.capK()
		for rank := range size {
			if errs[rank] != nil || capAt(ds[rank], limit) != capAt(want, limit) {
				t.Fatalf("%s: rank %d got %d, %v; want %d", what, rank, ds[rank], errs[rank], want)
			}
		}
		ta, tb := trimCommon(a, b)
		if joined := min(len(ta), len(tb)) > 0; joined && (hub.sent[TagRanksHello] != size-1 || hub.sent[TagRanksReply] != size-1) {
			t.Fatalf("%s: %d hellos and %d replies, want %d each", what, hub.sent[TagRanksHello], hub.sent[TagRanksReply], size-1)
		}
	}
}

// TestRanksRows: the ranks exchange bottom rows when more groups than
// ranks, and none when one rank holds every group that matters.
func TestRanksRows(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 4))
	a := dpRandSeq[uint8](r, 4000, 4, 0) // 2 groups of 2,048 rows, 8 of 512 or 16 of 256
	b := dpRandSeq[uint8](r, 6000, 4, 0)
	want, _ := myersDistance(a, b, &config{ctx: context.Background()}, 1)
	for _, size := range []int{2, 3, 8, 20} {
		ds, errs, hub := overRanks(size, func(rk Ranks) (int, error) {
			return myersDistance(a, b, &config{ctx: context.Background(), ranks: rk}, 1)
		})
		for rank := range size {
			if errs[rank] != nil || ds[rank] != want {
				t.Fatalf("%d ranks: rank %d got %d, %v; want %d", size, rank, ds[rank], errs[rank], want)
			}
		}
		if hub.sent[TagRanksRow] == 0 || hub.sent[TagRanksResult] == 0 {
			t.Fatalf("%d ranks: %d row and %d result messages", size, hub.sent[TagRanksRow], hub.sent[TagRanksResult])
		}
	}
	// A short pattern: one group, on rank 0; the others only hear the result.
	ds, errs, hub := overRanks(3, func(rk Ranks) (int, error) {
		return myersDistance(a[:100], b, &config{ctx: context.Background(), ranks: rk}, 2)
	})
	want, _ = myersDistance(a[:100], b, &config{ctx: context.Background()}, 2)
	for rank := range 3 {
		if errs[rank] != nil || ds[rank] != want {
			t.Fatalf("one group: rank %d got %d, %v; want %d", rank, ds[rank], errs[rank], want)
		}
	}
	if hub.sent[TagRanksRow] != 0 {
		t.Fatalf("one group: %d row messages, want 0", hub.sent[TagRanksRow])
	}
}

// TestRanksDisagree: ranks of different inputs or workers all fail, each
// naming the first rank that differs and rank 0's shape.
func TestRanksDisagree(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 5))
	a := dpRandSeq[uint8](r, 2000, 4, 0)
	b := dpRandSeq[uint8](r, 3000, 4, 0)
	for _, tc := range []struct {
		name string
		f    func(rank int) ([]uint8, int)
		want string
	}{
		{"inputs", func(rank int) ([]uint8, int) {
			if rank == 2 {
				return b[:2999], 1
			}
			return b, 1
		}, "rank 2 has 2000×2999 symbols (common prefix and suffix dropped) and 1 workers, rank 0 2000×3000 and 1"},
		{"workers", func(rank int) ([]uint8, int) { return b, 1 + rank }, "rank 1 has 2000×3000 symbols"},
	} {
		_, errs, _ := overRanks(3, func(rk Ranks) (int, error) {
			bb, w := tc.f(rk.Rank())
			return myersDistance(a, bb, &config{ctx: context.Background(), ranks: rk}, w)
		})
		for rank, err := range errs {
			if !errors.Is(err, ErrInvalidOption) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: rank %d: %v; want ErrInvalidOption naming %q", tc.name, rank, err, tc.want)
			}
		}
	}
}

// TestRanksNarrow: ranks of different group widths run the narrowest.
func TestRanksNarrow(t *testing.T) {
	if !hasAVX512Myers {
		t.Skip("needs the AVX-512 kernel beside a narrower one")
	}
	r := rand.New(rand.NewPCG(29, 6))
	a := dpRandSeq[uint8](r, 3000, 4, 0)
	b := dpRandSeq[uint8](r, 3500, 4, 0)
	want, _ := myersDistance(a, b, &config{ctx: context.Background()}, 1)
	ds, errs, _ := overRanks(2, func(rk Ranks) (int, error) {
		k := kernelAVX512
		if rk.Rank() == 1 {
			k = kernelGo
		}
		return myersDistance(a, b, &config{ctx: context.Background(), ranks: rk, kernel: k}, 1)
	})
	for rank := range 2 {
		if errs[rank] != nil || ds[rank] != want {
			t.Fatalf("rank %d got %d, %v; want %d", rank, ds[rank], errs[rank], want)
		}
	}
}

// TestRanksRefused: only the bit-parallel distance takes ranks; a nil or
// out-of-range one is refused, and one rank runs as without the option.
func TestRanksRefused(t *testing.T) {
	two := chanRanks{newChanHub(2), 0}
	a, b := []byte("kitten"), []byte("sitting")
	for name, err := range map[string]error{
		"nil":         func() error { _, err := Distance(a, b, WithRanks(nil)); return err }(),
		"rank 2 of 2": func() error { _, err := Distance(a, b, WithRanks(chanRanks{newChanHub(2), 2})); return err }(),
		"tworow":      func() error { _, err := Distance(a, b, WithAlgorithm(TwoRow), WithRanks(two)); return err }(),
		"align":       func() error { _, err := Align(a, b, WithRanks(two)); return err }(),
		"cross":       Cross([][]byte{a}, [][]byte{b}, func(Pair) error { return nil }, WithRanks(two)),
		"matrix":      func() error { _, err := Matrix([][]byte{a}, [][]byte{b}, WithRanks(two)); return err }(),
	} {
		if !errors.Is(err, ErrInvalidOption) || !strings.Contains(err.Error(), "ranks") {
			t.Errorf("%s: %v; want ErrInvalidOption about ranks", name, err)
		}
	}
	if d, err := Distance(a, b, WithRanks(chanRanks{newChanHub(1), 0})); d != 3 || err != nil {
		t.Errorf("one rank: %d, %v; want 3", d, err)
	}
}
