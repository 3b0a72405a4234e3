//go:build mpi

package mpi

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"

	"github.com/levlab/levlab/lev"
	gompi "github.com/sbromberger/gompi"
)

// Open returns the ranks of the MPI job that started this process, or
// Single when no launcher did (a plain run of an MPI build needs no
// mpirun).
//
// MPI is initialised without thread support (MPI_THREAD_SINGLE), so every
// MPI call must come from one OS thread: the calling goroutine is locked
// to its thread until done, which finalises MPI. o.Threaded asks for
// MPI_THREAD_MULTIPLE instead, for Link's messages.
//
// done must be deferred by the caller: a panic of this rank's goroutine
// then passes through it, and it prints the panic, naming the rank, with
// its stack, and ends the whole job with MPI_Abort. Finalising instead
// would wait for the other ranks, which wait for this one in a collective:
// the job would hang, the panic never printed.
func Open(o Options) (c Comm, done func(), err error) {
	if launchedRanks() == 0 {
		return Single{}, func() {}, nil
	}
	runtime.LockOSThread()
	gompi.Start(o.Threaded)
	w := gompi.NewCommunicator(nil)
	wc := &world{w: w, r: w.Rank(), n: w.Size(), o: o}
	return wc, func() {
		if r := recover(); r != nil {
			wc.abort(fmt.Errorf("panic: %v", r), debug.Stack())
		}
		gompi.Stop()
		runtime.UnlockOSThread()
	}, nil
}

// abort prints err as levlab does, naming this rank, then stack if any,
// and ends every rank of the job with MPI_Abort (mpirun exits with a
// failure). It is for what the ranks cannot agree on (Comm.Agree): a
// panic, a collective that failed on this rank. It does not return.
func (c *world) abort(err error, stack []byte) {
	fmt.Fprintf(c.o.Stderr, "levlab: %s: rank %d of %d: %v\n", c.o.Cmd, c.r, c.n, err)
	c.o.Stderr.Write(stack)
	c.w.Abort(failure)
	os.Exit(failure) // MPI_Abort does not return; should it, this rank still ends
}

// world is the world communicator of an MPI job.
type world struct {
	w    *gompi.Communicator
	r, n int
	o    Options
	// read is set by Bcast, which levlab match calls just before each
	// rank reads its part of the text: the next Agree is the one on the
	// reads, where the test hooks act.
	read bool
}

// Test-only hooks, for levlab's TestMPIRankFails and nothing else: with
// LEVLAB_MPI_TEST_FAIL_RANK=R rank R fails, and with
// LEVLAB_MPI_TEST_PANIC_RANK=R it panics, at the first Agree after a
// Bcast (levlab match: once it has read its part of the text). Only the
// MPI build reads them, and only under mpirun.
const (
	TestFailRankEnv  = "LEVLAB_MPI_TEST_FAIL_RANK"
	TestPanicRankEnv = "LEVLAB_MPI_TEST_PANIC_RANK"
)

// testHooks returns err, or the failure or panic a test hook asks of this
// rank.
func (c *world) testHooks(err error) error {
	r := strconv.Itoa(c.r)
	if os.Getenv(TestPanicRankEnv) == r {
		panic("panic injected by " + TestPanicRankEnv + "=" + r)
	}
	if os.Getenv(TestFailRankEnv) == r {
		return errors.Join(err, fmt.Errorf("failure injected by %s=%s", TestFailRankEnv, r))
	}
	return err
}

func (c *world) Rank() int { return c.r }
func (c *world) Size() int { return c.n }

func (c *world) Agree(err error) error {
	if c.read {
		c.read = false
		err = c.testHooks(err)
	}
	// Every rank learns every rank's exit status.
	codes, all := make([]int64, c.n), make([]int64, c.n)
	codes[c.r] = int64(c.o.Status(err))
	if aerr := c.w.AllreduceInt64s(all, codes, gompi.OpSum, 0); aerr != nil {
		c.abort(errors.Join(err, fmt.Errorf("agreeing on the ranks' status: %w", aerr)), nil) // the others may wait
	}
	worst := slices.Max(all)
	if worst == 0 {
		return nil
	}
	// Rank 0 speaks for the job where it failed, else each rank that did.
	// The speakers print before any rank exits (the barrier): mpirun ends
	// the whole job as soon as one process exits with a failure, which
	// could otherwise cut a message off. The others exit with 0, so that
	// mpirun's status is a speaker's.
	speaks := (all[0] != 0 && c.r == 0) || (all[0] == 0 && err != nil)
	code := 0
	if speaks {
		if c.r != 0 {
			err = fmt.Errorf("rank %d of %d: %w", c.r, c.n, err)
		}
		code = c.o.Report(err)
	}
	c.w.Barrier()
	return c.o.Said(code)
}

func (c *world) Bcast(n int64) int64 {
	c.read = true
	x := []int64{n}
	c.w.BcastInt64s(x, 0)
	return x[0]
}

func (c *world) Barrier() { c.w.Barrier() }

func (c *world) Fail(err error) { c.abort(err, nil) }

func (c *world) Sum(counts []int64) ([]int64, error) {
	total := make([]int64, len(counts))
	if len(counts) == 0 {
		return total, nil
	}
	if err := c.w.ReduceInt64s(total, counts, gompi.OpSum, 0); err != nil {
		return nil, err
	}
	return total, nil
}

// sendTag is the tag of Send and Recv's messages.
const sendTag = 7

func (c *world) BcastBytes(b []byte) []byte {
	n := []int64{int64(len(b))}
	c.w.BcastInt64s(n, 0)
	if c.r != 0 {
		b = make([]byte, n[0])
	}
	if n[0] > 0 {
		c.w.BcastBytes(b, 0)
	}
	return b
}

func (c *world) Send(b []byte, to int) { c.w.SendBytes(b, to, sendTag) }

func (c *world) Recv(from int) []byte {
	b, _ := c.w.RecvBytes(from, sendTag)
	return b
}

// Link is the job's world as lev.Ranks: polled non-blocking messages
// (link.go), which need Options.Threaded.
func (c *world) Link(ctx context.Context) lev.Ranks { return link{ctx, c.r, c.n} }
