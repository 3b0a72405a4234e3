//go:build mpi

package mpi

// link's C is levlab_mpi.c; pkg-config finds Open MPI (ompi-c), as
// Debian's libopenmpi-dev and others install it.

/*
#cgo pkg-config: ompi-c
#cgo CFLAGS: -pthread
#cgo LDFLAGS: -pthread
#include "levlab_mpi.h"
*/
import "C"

import (
	"context"
	"fmt"
	"runtime"
	"time"
	"unsafe"
)

// link is MPI_COMM_WORLD seen from one rank, as lev.Ranks: one
// distance's messages, MPI's non-blocking sends and receives on the
// caller's memory, polled, so that a rank waiting for a message sleeps
// rather than spin in MPI_Recv and leaves its cores to the workers. MPI
// must be initialised with MPI_THREAD_MULTIPLE (Options.Threaded), as two
// goroutines send and receive at once. Its messages give up once ctx is
// done (the job is then ended by the caller: a message left in flight is
// MPI's).
type link struct {
	ctx        context.Context
	rank, size int
}

func (l link) Rank() int { return l.rank }
func (l link) Size() int { return l.size }

// Send sends b, not empty, to rank to under tag, and returns once b may
// be reused: MPI reads b itself, pinned meanwhile.
func (l link) Send(to, tag int, b []byte) error {
	var pin runtime.Pinner
	pin.Pin(&b[0])
	op := C.levlab_isend(unsafe.Pointer(&b[0]), C.int(len(b)), C.int(to), C.int(tag))
	if _, err := l.wait(op); err != nil {
		return err // op and b are MPI's until it completes: left pinned
	}
	pin.Unpin()
	C.levlab_free(op)
	return nil
}

// Recv fills b with the next message rank from sent under tag, which must
// be len(b) bytes long; MPI writes b itself, pinned meanwhile.
func (l link) Recv(from, tag int, b []byte) error {
	var pin runtime.Pinner
	pin.Pin(&b[0])
	op := C.levlab_irecv(unsafe.Pointer(&b[0]), C.int(len(b)), C.int(from), C.int(tag))
	n, err := l.wait(op)
	if err != nil {
		return err
	}
	pin.Unpin()
	C.levlab_free(op)
	if n != len(b) {
		return fmt.Errorf("a message of %d bytes from rank %d, %d expected", n, from, len(b))
	}
	return nil
}

// wait polls op until it completes and returns the bytes it received: it
// yields at first, then sleeps between looks, twice as long each time from
// 10 µs up to 500 µs (lev's messages run ahead of their reader).
func (l link) wait(op *C.levlab_op) (int, error) {
	var count C.int
	sleep := 10 * time.Microsecond
	for i := 0; C.levlab_test(op, &count) == 0; i++ {
		if err := l.ctx.Err(); err != nil {
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
