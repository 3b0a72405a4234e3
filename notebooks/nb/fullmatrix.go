package nb

import (
	"fmt"

	"github.com/levlab/levlab/experiments"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/report"
)

// FullMatrix says, before fullmatrix is timed on strings of lengths m and
// n, how large its matrix is ("4.66 GiB"), and, where that is more than a
// point may take here (experiments.FullMatrixLimit, which Measure holds
// it to), why it is refused: a live cell says so at once rather than
// starting it.
func FullMatrix(m, n int) (size, refused string) {
	return fullMatrix(m, n, experiments.FullMatrixLimit())
}

func fullMatrix(m, n int, limit int64) (size, refused string) {
	need, ok := lev.FullMatrixBytes(m, n)
	if !ok {
		return "more than 2^64 bytes", fmt.Sprintf("fullmatrix at %s × %s needs more than 2^64 bytes for its matrix: it is refused (tworow gives the same distance in two rows).", report.Count(m), report.Count(n))
	}
	size = report.Bytes(float64(need))
	if need > uint64(limit) {
		refused = fmt.Sprintf("fullmatrix at %s × %s needs %s for its matrix, over the %s a point may take here: it is refused, as levlab distance refuses it (tworow gives the same distance in two rows).",
			report.Count(m), report.Count(n), size, report.Bytes(float64(limit)))
	}
	return size, refused
}
