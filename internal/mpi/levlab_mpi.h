// The non-blocking MPI messages of internal/mpi (link.go).
#ifndef LEVLAB_MPI_H
#define LEVLAB_MPI_H

#include <mpi.h>

// A message in flight: its request, on memory the caller keeps (pinned)
// until the request completes.
typedef struct {
	MPI_Request req;
} levlab_op;

levlab_op *levlab_isend(const void *b, int n, int to, int tag);
levlab_op *levlab_irecv(void *b, int n, int from, int tag);
int levlab_test(levlab_op *op, int *count);
void levlab_free(levlab_op *op);

#endif
