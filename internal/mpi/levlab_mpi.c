//go:build mpi

#include <stdlib.h>
#include "levlab_mpi.h"

// levlab_isend starts sending n bytes at b to rank to of MPI_COMM_WORLD.
levlab_op *levlab_isend(const void *b, int n, int to, int tag) {
	levlab_op *op = malloc(sizeof *op);
	MPI_Isend(b, n, MPI_BYTE, to, tag, MPI_COMM_WORLD, &op->req);
	return op;
}

// levlab_irecv starts receiving up to n bytes from rank from into b.
levlab_op *levlab_irecv(void *b, int n, int from, int tag) {
	levlab_op *op = malloc(sizeof *op);
	MPI_Irecv(b, n, MPI_BYTE, from, tag, MPI_COMM_WORLD, &op->req);
	return op;
}

// levlab_test returns whether op is done, and sets *count to the bytes it
// received.
int levlab_test(levlab_op *op, int *count) {
	int done = 0;
	MPI_Status st;
	MPI_Test(&op->req, &done, &st);
	if (done) {
		MPI_Get_count(&st, MPI_BYTE, count);
	}
	return done;
}

// levlab_free frees a completed op.
void levlab_free(levlab_op *op) { free(op); }
