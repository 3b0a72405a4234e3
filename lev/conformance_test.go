package lev_test

import (
	"testing"

	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/lev/levtest"
)

// TestConformance runs every algorithm, Auto and the GPU ones included,
// through levtest's suite. A GPU algorithm skips, saying why, where CUDA is
// unavailable (fails instead under LEVLAB_REQUIRE_GPU=1). A failure logs the
// LEVTEST_SEED that replays it.
func TestConformance(t *testing.T) {
	for _, alg := range lev.Algorithms() {
		t.Run(alg.String(), func(t *testing.T) {
			t.Parallel()
			levtest.Run(t, alg)
		})
	}
}
