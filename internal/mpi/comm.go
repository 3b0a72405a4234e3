// Package mpi is how a levlab command runs over the ranks of an MPI job
// (levlab match, matrix and distance under mpirun). Open returns the
// processes the command runs on as a Comm: the job's world, or Single,
// this process alone, where no launcher started it. A Comm's collectives
// go through gompi; its Link carries one distance's messages (lev.Ranks)
// as MPI's non-blocking sends and receives, polled, on the caller's pinned
// memory (levlab_mpi.c).
//
// MPI is there in a build with -tags mpi and cgo: Open MPI, found by
// pkg-config (ompi-c) for levlab_mpi.c, and at Debian's paths for gompi,
// whose #cgo lines name them. Without the tag Open returns Single, and
// refuses to run as one of several processes a launcher started.
package mpi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/levlab/levlab/lev"
)

// A Comm is the processes a command runs on: this one alone, or the
// ranks of an MPI job. Rank 0 reads what one process reads, and prints.
type Comm interface {
	Rank() int
	Size() int
	// Agree is called by every rank with its error (nil for none) and
	// returns nil when no rank failed, else what the rank returns. One
	// process returns its error. Under MPI the message is printed once:
	// by rank 0 where it failed, else by each rank that did, named by
	// rank; then every rank returns Options.Said of its exit status.
	Agree(err error) error
	// Bcast sends rank 0's n to every rank.
	Bcast(n int64) int64
	// Barrier returns once every rank has called it.
	Barrier()
	// Sum adds up the counts of every rank; rank 0 gets the sums.
	Sum(counts []int64) ([]int64, error)
	// BcastBytes sends rank 0's b to every rank.
	BcastBytes(b []byte) []byte
	// Send sends b, not empty, to rank to, which takes it with Recv.
	Send(b []byte, to int)
	Recv(from int) []byte
	// Link is the ranks as lev.Ranks (lev.WithRanks), their messages
	// given up once ctx is done; nil for one process. It needs
	// Options.Threaded.
	Link(ctx context.Context) lev.Ranks
	// Fail ends the job where a rank cannot agree with the others (they
	// may wait on it): it prints err, naming the rank, and ends every
	// rank. One process: it does nothing, and the caller returns err.
	Fail(err error)
}

// Options are what Open needs of the command it runs over the ranks.
type Options struct {
	Cmd    string    // the command, in messages: "match"
	Stderr io.Writer // where the messages go
	// Threaded asks for MPI_THREAD_MULTIPLE, which Link's messages need;
	// else MPI is initialised without thread support (MPI_THREAD_SINGLE).
	Threaded bool
	// Status is the exit status err calls for: 0 for nil.
	Status func(err error) int
	// Report prints err as the command prints its errors and returns
	// Status(err).
	Report func(err error) int
	// Said is the error a rank returns for a failure that is said, by
	// this rank or another: the command exits with status and prints
	// nothing more.
	Said func(status int) error
}

// failure is the exit status of a job Fail ends.
const failure = 1

// Single is one process: the Comm of a plain run.
type Single struct{}

func (Single) Rank() int                           { return 0 }
func (Single) Size() int                           { return 1 }
func (Single) Agree(err error) error               { return err }
func (Single) Bcast(n int64) int64                 { return n }
func (Single) Barrier()                            {}
func (Single) Link(context.Context) lev.Ranks      { return nil }
func (Single) Fail(error)                          {}
func (Single) Sum(counts []int64) ([]int64, error) { return counts, nil }
func (Single) BcastBytes(b []byte) []byte          { return b }

// A single process has no other rank to send to or receive from.
func (Single) Send([]byte, int) { panic("levlab: send without a second rank") }
func (Single) Recv(int) []byte  { panic("levlab: recv without a second rank") }

// launchedRanks returns the number of processes of the MPI job that
// started this one, as the launcher says in the environment (Open MPI's
// mpirun, or a PMI launcher such as MPICH's), and 0 when none did.
func launchedRanks() int {
	for _, v := range []string{"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"} {
		if n, err := strconv.Atoi(os.Getenv(v)); err == nil && n > 0 {
			return n
		}
	}
	return 0
}

// SameInputs checks, on every rank, that the inputs are rank 0's: their
// SHA-256 against rank 0's. what names them in the error: "files".
func SameInputs(c Comm, what string, inputs ...[]byte) error {
	sum := sha256.New()
	for _, f := range inputs {
		h := sha256.Sum256(f)
		sum.Write(h[:])
	}
	mine := sum.Sum(nil)
	if ref := c.BcastBytes(mine); !bytes.Equal(ref, mine) {
		return fmt.Errorf("the input %s differ from rank 0's (their SHA-256 %x…, rank 0's %x…): every rank must read the same %s", what, mine[:6], ref[:6], what)
	}
	return nil
}
