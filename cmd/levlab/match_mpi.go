//go:build mpi

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"

	mpi "github.com/sbromberger/gompi"
)

// openComm returns the ranks of the MPI job that started this process, or
// the single process when no launcher did (a plain "levlab match" of an
// MPI build needs no mpirun).
//
// MPI is initialised without thread support (MPI_THREAD_SINGLE), so every
// MPI call must come from one OS thread: the calling goroutine is locked
// to its thread until done, which finalises MPI. threaded asks for
// MPI_THREAD_MULTIPLE instead, for lev's messages (link).
//
// done must be deferred by the caller: a panic of this rank's goroutine
// then passes through it, and it prints the panic, naming the rank, with
// its stack, and ends the whole job with MPI_Abort. Finalising instead
// would wait for the other ranks, which wait for this one in a collective:
// the job would hang, the panic never printed.
func openComm(stderr io.Writer, cmd string, threaded bool) (comm, func(), error) {
	if launchedRanks() == 0 {
		return single{}, func() {}, nil
	}
	runtime.LockOSThread()
	mpi.Start(threaded)
	w := mpi.NewCommunicator(nil)
	c := &mpiComm{w: w, r: w.Rank(), n: w.Size(), stderr: stderr, cmd: cmd}
	return c, func() {
		if r := recover(); r != nil {
			c.abort(fmt.Errorf("panic: %v", r), debug.Stack())
		}
		mpi.Stop()
		runtime.UnlockOSThread()
	}, nil
}

// abort prints err as levlab does, naming this rank, then stack if any,
// and ends every rank of the job with MPI_Abort (mpirun exits with a
// failure). It is for what the ranks cannot agree on (comm.agree): a panic,
// a collective that failed on this rank. It does not return.
func (c *mpiComm) abort(err error, stack []byte) {
	fmt.Fprintf(c.stderr, "levlab: %s: rank %d of %d: %v\n", c.cmd, c.r, c.n, err)
	c.stderr.Write(stack)
	c.w.Abort(exitFailure)
	os.Exit(exitFailure) // MPI_Abort does not return; should it, this rank still ends
}

// mpiComm is the world communicator of an MPI job.
type mpiComm struct {
	w      *mpi.Communicator
	r, n   int
	stderr io.Writer
	cmd    string // the subcommand, for messages: "match"
	// read is set by bcast, which readText calls just before each rank
	// reads its part: the next agree is the one on the reads, where the
	// test hooks act.
	read bool
}

// Test-only hooks, for TestMPIRankFails and nothing else: with
// LEVLAB_MPI_TEST_FAIL_RANK=R rank R fails, and with
// LEVLAB_MPI_TEST_PANIC_RANK=R it panics, once it has read its part of the
// text. Only the MPI build reads them, and only under mpirun.
const (
	mpiTestFailRankEnv  = "LEVLAB_MPI_TEST_FAIL_RANK"
	mpiTestPanicRankEnv = "LEVLAB_MPI_TEST_PANIC_RANK"
)

// testHooks returns err, or the failure or panic a test hook asks of this
// rank.
func (c *mpiComm) testHooks(err error) error {
	r := strconv.Itoa(c.r)
	if os.Getenv(mpiTestPanicRankEnv) == r {
		panic("panic injected by " + mpiTestPanicRankEnv + "=" + r)
	}
	if os.Getenv(mpiTestFailRankEnv) == r {
		return errors.Join(err, fmt.Errorf("failure injected by %s=%s", mpiTestFailRankEnv, r))
	}
	return err
}

func (c *mpiComm) rank() int { return c.r }
func (c *mpiComm) size() int { return c.n }

func (c *mpiComm) agree(err error) error {
	if c.read {
		c.read = false
		err = c.testHooks(err)
	}
	// Every rank learns every rank's exit status.
	codes, all := make([]int64, c.n), make([]int64, c.n)
	codes[c.r] = int64(exitCode(err))
	if aerr := c.w.AllreduceInt64s(all, codes, mpi.OpSum, 0); aerr != nil {
		c.abort(errors.Join(err, fmt.Errorf("agreeing on the ranks' status: %w", aerr)), nil) // the others may wait
	}
	worst := slices.Max(all)
	if worst == exitOK {
		return nil
	}
	// Rank 0 speaks for the job where it failed, else each rank that did.
	// The speakers print before any rank exits (the barrier): mpirun ends
	// the whole job as soon as one process exits with a failure, which
	// could otherwise cut a message off. The others exit with 0, so that
	// mpirun's status is a speaker's.
	speaks := (all[0] != exitOK && c.r == 0) || (all[0] == exitOK && err != nil)
	code := exitOK
	if speaks {
		if c.r != 0 {
			err = fmt.Errorf("rank %d of %d: %w", c.r, c.n, err)
		}
		code = reportError(c.stderr, c.cmd, err)
	}
	c.w.Barrier()
	return exitStatus(code)
}

func (c *mpiComm) bcast(n int64) int64 {
	c.read = true
	x := []int64{n}
	c.w.BcastInt64s(x, 0)
	return x[0]
}

func (c *mpiComm) barrier() { c.w.Barrier() }

func (c *mpiComm) fail(err error) { c.abort(err, nil) }

func (c *mpiComm) sum(counts []int64) ([]int64, error) {
	total := make([]int64, len(counts))
	if len(counts) == 0 {
		return total, nil
	}
	if err := c.w.ReduceInt64s(total, counts, mpi.OpSum, 0); err != nil {
		return nil, err
	}
	return total, nil
}

// sendTag is the tag of send and recv's messages.
const sendTag = 7

func (c *mpiComm) bcastBytes(b []byte) []byte {
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

func (c *mpiComm) send(b []byte, to int) { c.w.SendBytes(b, to, sendTag) }

func (c *mpiComm) recv(from int) []byte {
	b, _ := c.w.RecvBytes(from, sendTag)
	return b
}
