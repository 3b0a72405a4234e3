package experiments

import (
	"testing"

	"github.com/levlab/levlab/lev/levtest"
)

// TestPeersRunCases runs every peer built in through the conformance
// cases lev's algorithms answer (levtest.RunCases): the Go peers, which
// count runes, on the ASCII ones; edlib, on bytes, on all of them. A
// benchmark of a wrong peer would compare nothing.
func TestPeersRunCases(t *testing.T) {
	for _, name := range Peers() {
		t.Run(name, func(t *testing.T) {
			if name == "edlib" && !edlibBuilt {
				t.Skip("edlib is built only with -tags edlib (make test runs it so)")
			}
			p := peers[name]
			levtest.RunCases(t, p.distance, levtest.CaseOptions{N: 400, MaxLen: 4000, ASCII: name != "edlib"})
		})
	}
}
