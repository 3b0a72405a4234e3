package lev

// myersParallel runs the bit-parallel algorithm of myers.go as a wavefront
// pipeline: tiles of groupStrips word-strips × a chunk of columns (WithTile
// sets the chunk width). Worker w owns groups w, w+W, w+2W, …, keeps a
// group's bit vectors in registers across its chunks, and starts chunk c of
// group g once group g−1 has published (through a per-worker progress
// counter on its own cache line) that it finished chunk c. Each worker
// writes its group's bottom deltas into its own boundary array, which the
// next worker reads; the ring of W arrays is safe because group g+W can
// only reach a column after group g+1 has consumed it.
//
// O(⌈m/64⌉·n/W) word operations at most, O(W·(n+σ) + m) memory.
func myersParallel[S symbol](a, b []S, c *config) (int, error) {
	return myersDistance(a, b, c, c.workers)
}
