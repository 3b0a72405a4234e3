package lev

import (
	"encoding/binary"
	"fmt"
	"time"
)

// Ranks are the processes that compute one distance together, the ranks
// of an MPI job say: see WithRanks. Rank numbers run from 0 to Size()−1.
//
// Send and Recv are called from two goroutines at once (one sending, one
// receiving), so an MPI transport must be initialised with
// MPI_THREAD_MULTIPLE. Messages between two ranks under one tag must
// arrive in the order sent, as MPI's do.
type Ranks interface {
	Rank() int
	Size() int
	// Send sends b, never empty, to rank to under tag, and returns once b
	// may be reused.
	Send(to, tag int, b []byte) error
	// Recv fills b with the next message that rank from sent under tag,
	// which is len(b) bytes long.
	Recv(from, tag int, b []byte) error
}

// The tags of the messages a distance over ranks sends: a transport
// shared with other traffic keeps these for it.
const (
	TagRanksHello  = 4101 // each rank's shape of the pass, to rank 0
	TagRanksReply  = 4102 // rank 0's answer: go, and with what width
	TagRanksRow    = 4103 // a group's top-left value, then its bottom row in chunks
	TagRanksResult = 4104 // a pass's result, from the rank of the last group
)

// WithRanks makes Distance and DistanceString compute one pair over the
// processes of r, each of which calls with the same a, b and options;
// each returns the distance. Myers, MyersParallel and Auto take it. The
// bit-parallel pipeline's groups of up to 2,048 rows (512 with AVX2
// alone, 256 in portable Go) are dealt to the ranks as to workers: with W workers a rank, group g is
// computed by rank (g mod R·W) / W, and a group whose neighbour above is
// on another rank gets that neighbour's bottom row in chunks of up to
// 65,536 columns (one byte a column) as soon as they are done, so that the
// ranks work at once. Each rank holds the whole strings, and per pass
// O(n + groups) more.
//
// The ranks first check that they agree on the lengths (after the common
// prefix and suffix are dropped) and the workers; they run the group
// width every rank has (a rank with AVX-512 among ranks without runs
// AVX2's). A rank whose call fails (cancelled, say) leaves the others
// waiting: the caller ends the job then, as with MPI_Abort.
//
// With one rank the call runs as without the option. Align, Cross, All
// and Matrix refuse it.
func WithRanks(r Ranks) Option {
	return func(c *config) {
		switch {
		case r == nil:
			c.Fail("ranks is nil")
		case r.Size() < 1 || r.Rank() < 0 || r.Rank() >= r.Size():
			c.Fail("ranks: rank %d of %d is out of range", r.Rank(), r.Size())
		default:
			c.ranks = r
		}
	}
}

// rankLink is a pass's share of the ranks: this process's rank and how the
// pipeline's groups are dealt (myersPass.stride), and the progress of its
// receiving and sending goroutines (receive and send, below).
type rankLink struct {
	r          Ranks
	rank, size int
	workers    int // each rank's, agreed: the pass clamps it to the groups
	width      int // strips per group, agreed

	in  paddedInt64 // u·(n+1) + last column of unit u−1's bottom row received, u a run's first unit
	out paddedInt64 // u·(n+1) + last column of unit u's bottom row sent, u a run's last unit
}

// rankChunkMax is the most columns of a bottom row in one message.
const rankChunkMax = 1 << 16

// linkNap is the longest the goroutines sending and receiving rows sleep
// between looks at the progress they wait for: they run ahead of the
// ranks they feed, and every wake-up takes the workers' time.
const linkNap = 500 * time.Microsecond

// joinRanks agrees with the other ranks on a pass of m×n symbols over
// workers workers each, in groups of width strips at most: rank 0 gathers
// every rank's shape and answers each with the width they all have, or
// with the first rank that differs, which then every rank names. It
// returns nil for one rank.
func joinRanks(r Ranks, m, n, workers, width int) (*rankLink, error) {
	if r == nil || r.Size() == 1 {
		return nil, nil
	}
	l := &rankLink{r: r, rank: r.Rank(), size: r.Size(), workers: workers, width: width}
	mine := []int64{int64(m), int64(n), int64(workers), int64(width)}
	// The reply: the width, then the first differing rank (−1: none) and
	// its shape, then rank 0's.
	reply := make([]int64, 10)
	if l.rank == 0 {
		reply[0], reply[1] = int64(width), -1
		copy(reply[6:], mine[:3])
		for from := 1; from < l.size; from++ {
			theirs, err := recvInts(r, from, TagRanksHello, 4)
			if err != nil {
				return nil, err
			}
			reply[0] = min(reply[0], theirs[3])
			if reply[1] < 0 && (theirs[0] != mine[0] || theirs[1] != mine[1] || theirs[2] != mine[2]) {
				reply[1] = int64(from)
				copy(reply[2:], theirs[:3])
			}
		}
		for to := 1; to < l.size; to++ {
			if err := sendInts(r, to, TagRanksReply, reply); err != nil {
				return nil, err
			}
		}
	} else {
		if err := sendInts(r, 0, TagRanksHello, mine); err != nil {
			return nil, err
		}
		var err error
		if reply, err = recvInts(r, 0, TagRanksReply, len(reply)); err != nil {
			return nil, err
		}
	}
	if bad := reply[1]; bad >= 0 {
		return nil, fmt.Errorf("%w: ranks: rank %d has %d×%d symbols (common prefix and suffix dropped) and %d workers, rank 0 %d×%d and %d: every rank must compute the same pair with the same workers",
			ErrInvalidOption, bad, reply[2], reply[3], reply[4], reply[6], reply[7], reply[8])
	}
	l.width = int(reply[0])
	return l, nil
}

func sendInts(r Ranks, to, tag int, xs []int64) error {
	b := make([]byte, 8*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
	}
	return r.Send(to, tag, b)
}

func recvInts(r Ranks, from, tag, k int) ([]int64, error) {
	b := make([]byte, 8*k)
	if err := r.Recv(from, tag, b); err != nil {
		return nil, err
	}
	xs := make([]int64, k)
	for i := range xs {
		xs[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return xs, nil
}

// narrowTo returns the kernel and width a pass runs when the ranks agreed
// on width strips: k itself when it is that wide, AVX-512's eight strips
// for its sixteen, else the four-strip kernel this CPU has.
func narrowTo(k myersKernel, kw, width int) (myersKernel, int) {
	if kw <= width {
		return k, kw
	}
	if k == kernelAVX512 && width >= 8 {
		return k, width // sixteen strips narrowed to eight: still AVX-512
	}
	if useAVX2 {
		return kernelAVX2, width
	}
	return kernelGo, width
}

// The units of a pass (worker): with a link, this process computes the
// units u with u mod stride in [rank·workers, (rank+1)·workers), local
// worker u mod stride − rank·workers; without one, every unit, worker
// u mod workers.

func (ps *myersPass[S]) stride() int {
	if ps.link == nil {
		return ps.workers
	}
	return ps.workers * ps.link.size
}

// firstUnit is the first unit worker w computes.
func (ps *myersPass[S]) firstUnit(w int) int {
	if ps.link == nil {
		return w
	}
	return ps.link.rank*ps.workers + w
}

// slot is the local worker that computes unit u, one of this process's.
func (ps *myersPass[S]) slot(u int) int { return u%ps.stride() - ps.firstUnit(0) }

// remoteAbove reports whether the unit above u is another rank's.
func (ps *myersPass[S]) remoteAbove(u int) bool {
	return ps.link != nil && u%ps.stride() == ps.firstUnit(0)
}

// owner is the rank that computes unit u.
func (ps *myersPass[S]) owner(u int) int { return u % ps.stride() / ps.workers }

// waitAbove blocks until the unit above u has finished column col, here
// or on the rank that computes it.
func (ps *myersPass[S]) waitAbove(u, col int) error {
	if ps.remoteAbove(u) {
		return ps.await(&ps.link.in, int64(u)*int64(ps.n+1)+int64(col))
	}
	return ps.wait(u-1, col)
}

// rankChunk is the width of a bottom row's messages: a sixteenth of the
// columns a unit spans (all of them, or a narrow band's), at least a
// pipeline chunk and at most rankChunkMax, so that the rank below starts
// soon and messages stay few.
func (ps *myersPass[S]) rankChunk() int {
	span := min(ps.n, ps.bundle*ps.rows+ps.band.lo+ps.band.hi)
	return max(ps.chunk, min(rankChunkMax, span/16))
}

// send sends the next rank the bottom row of the last unit of each of
// this process's runs (but the very last unit's): its last group's
// top-left value first, then its columns in chunks as they are done.
func (ps *myersPass[S]) send() error {
	l, n, step := ps.link, int64(ps.n+1), ps.rankChunk()
	to := (l.rank + 1) % l.size
	for u := ps.firstUnit(ps.workers - 1); u < ps.units()-1; u += ps.stride() {
		prog := &ps.prog[ps.slot(u)]
		g := (u+1)*ps.bundle - 1
		J, E := ps.span(g)
		if err := ps.awaitUpTo(prog, int64(u)*n+int64(min(J, ps.n)), linkNap); err != nil {
			return err
		}
		if err := sendInts(l.r, to, TagRanksRow, []int64{int64(ps.tops[g])}); err != nil {
			return err
		}
		for c0 := J; c0 <= E; c0 += step {
			c1 := min(E+1, c0+step)
			if err := ps.awaitUpTo(prog, int64(u)*n+int64(c1-1), linkNap); err != nil {
				return err
			}
			if err := l.r.Send(to, TagRanksRow, ps.bound[c0:c1]); err != nil {
				return err
			}
			l.out.Store(int64(u)*n + int64(c1-1))
		}
		l.out.Store(int64(u)*n + int64(ps.n))
	}
	return nil
}

// receive takes from the previous rank the bottom row of the unit above
// the first of each of this process's runs, into the boundary row, once
// this process has sent what its last run left there.
func (ps *myersPass[S]) receive() error {
	l, n, step := ps.link, int64(ps.n+1), ps.rankChunk()
	from := (l.rank + l.size - 1) % l.size
	for u := ps.firstUnit(0); u < ps.units(); u += ps.stride() {
		if u == 0 {
			continue
		}
		g := u*ps.bundle - 1 // the group above
		top, err := recvInts(l.r, from, TagRanksRow, 1)
		if err != nil {
			return err
		}
		ps.tops[g] = int(top[0])
		pJ, pE := ps.span(g)
		last := u - ps.stride() + ps.workers - 1 // this process's previous run's last unit
		for c0 := pJ; c0 <= pE; c0 += step {
			c1 := min(pE+1, c0+step)
			if last >= 0 {
				if err := ps.awaitUpTo(&l.out, int64(last)*n+int64(c1-1), linkNap); err != nil {
					return err
				}
			}
			if err := l.r.Recv(from, TagRanksRow, ps.bound[c0:c1]); err != nil {
				return err
			}
			l.in.Store(int64(u)*n + int64(c1-1))
		}
		l.in.Store(int64(u)*n + int64(ps.n))
	}
	return nil
}

// shareResult gives every rank the result of the rank that computed the
// last group.
func (ps *myersPass[S]) shareResult() error {
	l := ps.link
	owner := ps.owner(ps.units() - 1)
	if l.rank != owner {
		x, err := recvInts(l.r, owner, TagRanksResult, 1)
		if err != nil {
			return err
		}
		ps.result = int(x[0])
		return nil
	}
	for to := range l.size {
		if to != owner {
			if err := sendInts(l.r, to, TagRanksResult, []int64{int64(ps.result)}); err != nil {
				return err
			}
		}
	}
	return nil
}
