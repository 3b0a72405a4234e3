// Package matrixshard splits levlab matrix's pairs: into the shards of
// batch jobs (matrix --shard I/N, --shards N), written to files that
// merge joins, and into the bands the ranks of an MPI job take in turn.
//
// A Matrix's rows are FILE_A's strings. Matrix.Rows (RowsOf over the
// lengths alone) cuts them into runs of about equal cells (Σ|a|·|b| of
// their pairs), so that shards of skewed lengths take about as long, and
// Matrix.Run computes a run's pairs in the order and numbering one process
// gives them.
//
// A shard's file (FileName; Write) holds its lines as one process prints
// them between two lines of JSON: first Tag and a Header — the format, the
// shard, its rows, the input files' SHA-256, the flags that shape the
// output and the levlab that wrote it — and last EndTag and a Trailer, the
// count of the lines and their bytes, so that a file cut short is told
// from a whole one. Paths, Read and Copy join a folder of them, after
// checking that they are every shard of one run, once.
//
// Under mpirun, a Dealer on rank 0 hands the bands out one at a time to
// whichever rank asks, and SendLines and RecvLines bring each band's lines
// to rank 0, whole lines in every message.
package matrixshard
