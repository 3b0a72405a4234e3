package experiments

import (
	"context"
	"errors"
)

// ErrSkipped is wrapped by Measure's error when a point cannot run on this
// machine (no GPU, a peer not built in); the runner records why instead of
// failing.
var ErrSkipped = errors.New("skipped")

// Measure times one repetition of point p on inputs a and b.
func Measure(ctx context.Context, p Point, a, b []byte) (Measurement, error) {
	return Measurement{}, errors.New("not implemented yet")
}
