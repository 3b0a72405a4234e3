//go:build mpi

package main

/*
#cgo linux CFLAGS: -I/usr/lib/x86_64-linux-gnu/openmpi/include/openmpi -I/usr/lib/x86_64-linux-gnu/openmpi/include -pthread
#cgo linux LDFLAGS: -pthread -L/usr/lib/x86_64-linux-gnu/openmpi/lib -lmpi
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

// A message in flight: its request, on memory the caller keeps (pinned)
// until the request completes.
typedef struct {
	MPI_Request req;
} levlab_op;

static levlab_op *levlab_isend(const void *b, int n, int to, int tag) {
	levlab_op *op = malloc(sizeof *op);
	MPI_Isend(b, n, MPI_BYTE, to, tag, MPI_COMM_WORLD, &op->req);
	return op;
}

static levlab_op *levlab_irecv(void *b, int n, int from, int tag) {
	levlab_op *op = malloc(sizeof *op);
	MPI_Irecv(b, n, MPI_BYTE, from, tag, MPI_COMM_WORLD, &op->req);
	return op;
}

// levlab_test returns whether op is done, and sets *count to the bytes
// it received.
static int levlab_test(levlab_op *op, int *count) {
	int done = 0;
	MPI_Status st;
	MPI_Test(&op->req, &done, &st);
	if (done) {
		MPI_Get_count(&st, MPI_BYTE, count);
	}
	return done;
}
*/
import "C"

import (
	"context"
	"fmt"
	"runtime"
	"time"
	"unsafe"

	"github.com/levlab/levlab/lev"
)

// mpiRanks is the MPI job's world as lev.Ranks, for a distance computed
// over the ranks (lev.WithRanks). Its messages are non-blocking MPI ones,
// polled: a rank waiting for its neighbour sleeps between looks rather
// than spin in MPI_Recv, so that it leaves the cores to the workers, and
// gives up when ctx is done. It needs MPI_THREAD_MULTIPLE (openComm's
// threaded): lev sends and receives from two goroutines at once.
type mpiRanks struct {
	ctx        context.Context
	rank, size int
}

func (c *mpiComm) link(ctx context.Context) lev.Ranks { return mpiRanks{ctx, c.r, c.n} }

func (r mpiRanks) Rank() int { return r.rank }
func (r mpiRanks) Size() int { return r.size }

// Send and Recv hand MPI the caller's memory, pinned until the message
// is done: no copy of their own.

func (r mpiRanks) Send(to, tag int, b []byte) error {
	var pin runtime.Pinner
	pin.Pin(&b[0])
	op := C.levlab_isend(unsafe.Pointer(&b[0]), C.int(len(b)), C.int(to), C.int(tag))
	if _, err := r.wait(op); err != nil {
		return err // op and b are MPI's until it completes: left pinned
	}
	pin.Unpin()
	C.free(unsafe.Pointer(op))
	return nil
}

func (r mpiRanks) Recv(from, tag int, b []byte) error {
	var pin runtime.Pinner
	pin.Pin(&b[0])
	op := C.levlab_irecv(unsafe.Pointer(&b[0]), C.int(len(b)), C.int(from), C.int(tag))
	n, err := r.wait(op)
	if err != nil {
		return err
	}
	pin.Unpin()
	C.free(unsafe.Pointer(op))
	if n != len(b) {
		return fmt.Errorf("a message of %d bytes from rank %d, %d expected", n, from, len(b))
	}
	return nil
}

// wait polls op until it completes and returns the bytes it received: it
// yields at first, then sleeps between looks, twice as long each time from
// 10 µs up to 500 µs (lev's messages run ahead of their reader).
func (r mpiRanks) wait(op *C.levlab_op) (int, error) {
	var count C.int
	sleep := 10 * time.Microsecond
	for i := 0; C.levlab_test(op, &count) == 0; i++ {
		if err := r.ctx.Err(); err != nil {
			return 0, err
		}
		if i < 64 {
			runtime.Gosched()
			continue
		}
		time.Sleep(sleep)
		sleep = min(2*sleep, 500*time.Microsecond)
	}
	return int(count), nil
}
