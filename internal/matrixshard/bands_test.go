package matrixshard

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/levlab/levlab/internal/mpi"
	"github.com/levlab/levlab/lev"
)

// queues are in-process ranks' messages, by sender, receiver and tag.
type queues struct {
	mu sync.Mutex
	q  map[[3]int]chan []byte
}

func (qs *queues) get(from, to, tag int) chan []byte {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	k := [3]int{from, to, tag}
	if qs.q[k] == nil {
		qs.q[k] = make(chan []byte, 1024)
	}
	return qs.q[k]
}

// fakeRank is one of size in-process ranks, as mpi.Comm and lev.Ranks.
type fakeRank struct {
	mpi.Single
	qs   *queues
	r, n int
}

func (f fakeRank) Rank() int                      { return f.r }
func (f fakeRank) Size() int                      { return f.n }
func (f fakeRank) Link(context.Context) lev.Ranks { return fakeLink{f} }

type fakeLink struct{ f fakeRank }

func (l fakeLink) Rank() int { return l.f.r }
func (l fakeLink) Size() int { return l.f.n }
func (l fakeLink) Send(to, tag int, b []byte) error {
	l.f.qs.get(l.f.r, to, tag) <- append([]byte(nil), b...)
	return nil
}
func (l fakeLink) Recv(from, tag int, b []byte) error {
	m := <-l.f.qs.get(from, l.f.r, tag)
	if len(m) != len(b) {
		return fmt.Errorf("%d bytes, want %d", len(m), len(b))
	}
	copy(b, m)
	return nil
}

// TestDealer: the bands of a matrix over ranks go out once each, in
// order, to whichever rank asks, so that a slow rank takes fewer; rank 0
// knows who took each.
func TestDealer(t *testing.T) {
	const size, bands = 3, 24
	qs := &queues{q: map[[3]int]chan []byte{}}
	got := make([][]int, size)
	var owners []int
	var wg sync.WaitGroup
	for r := range size {
		wg.Go(func() {
			d := NewDealer(context.Background(), fakeRank{qs: qs, r: r, n: size}, bands)
			for {
				k, err := d.Next()
				if err != nil {
					t.Error(err)
					return
				}
				if k < 0 {
					break
				}
				got[r] = append(got[r], k)
				if r == 2 {
					time.Sleep(20 * time.Millisecond) // a slow rank
				} else {
					time.Sleep(time.Millisecond)
				}
			}
			if err := d.Done(); err != nil {
				t.Error(err)
			}
			if r == 0 {
				owners = d.Owners()
			}
		})
	}
	wg.Wait()
	var all []int
	for r, ks := range got {
		if !slices.IsSorted(ks) {
			t.Errorf("rank %d took bands out of order: %v", r, ks)
		}
		for _, k := range ks {
			if owners[k] != r {
				t.Errorf("band %d: rank 0 says rank %d took it, rank %d did", k, owners[k], r)
			}
		}
		all = append(all, ks...)
	}
	slices.Sort(all)
	want := make([]int, bands)
	for i := range want {
		want[i] = i
	}
	if !slices.Equal(all, want) {
		t.Errorf("bands taken: %v, want 0 to %d once each", all, bands-1)
	}
	if len(got[2]) >= len(got[0]) || len(got[2]) >= len(got[1]) {
		t.Errorf("the slow rank took %d bands, the others %d and %d: want fewer", len(got[2]), len(got[0]), len(got[1]))
	}
}
