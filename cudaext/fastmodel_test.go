package cudaext

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// refDistance is the textbook two-row dynamic programme.
func refDistance[S comparable](a, b []S) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			v := prev[j-1]
			if a[i-1] != b[j-1] {
				v++
			}
			v = min(v, prev[j]+1, cur[j-1]+1)
			cur[j] = v
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func randomSymbols(rng *rand.Rand, n, sigma int) []byte {
	s := make([]byte, n)
	for i := range s {
		s[i] = byte(rng.IntN(sigma))
	}
	return s
}

var modelSchedules = []FastSchedule{
	{Lanes: 1, WordBits: 1, Chunk: 1, Warps: 1},
	{Lanes: 2, WordBits: 3, Chunk: 2, Warps: 3},
	{Lanes: 3, WordBits: 5, Chunk: 4, Warps: 2},
	{Lanes: 4, WordBits: 64, Chunk: 7, Warps: 5},
	{Lanes: 32, WordBits: 32, Chunk: 1, Warps: 2},
	GPUSchedule(4, 128),
}

func TestFastModelRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range modelSchedules {
		t.Run(fmt.Sprintf("%+v", s), func(t *testing.T) {
			for i := range 60 {
				la, lb := rng.IntN(300), rng.IntN(300)
				if i%10 == 0 {
					la = s.Lanes*s.WordBits*(1+rng.IntN(4)) + rng.IntN(3) - 1
				}
				sigma := []int{2, 4, 26, 256}[rng.IntN(4)]
				a, b := randomSymbols(rng, max(la, 0), sigma), randomSymbols(rng, lb, sigma)
				s.Seed = rng.Uint64()
				got, err := FastModel(a, b, s)
				if err != nil {
					t.Fatalf("%d×%d σ=%d: %v", len(a), len(b), sigma, err)
				}
				if want := refDistance(a, b); got != want {
					t.Fatalf("%d×%d σ=%d seed %d: got %d, want %d", len(a), len(b), sigma, s.Seed, got, want)
				}
			}
		})
	}
}

func TestFastModelWide(t *testing.T) {
	a := []uint32{1 << 20, 7, 1 << 30, 7, 99}
	b := []uint32{7, 1 << 20, 99, 1 << 30}
	for _, s := range modelSchedules {
		got, err := FastModel(a, b, s)
		if err != nil || got != refDistance(a, b) {
			t.Errorf("%+v: got %d, %v; want %d", s, got, err, refDistance(a, b))
		}
	}
}

// TestFastModelDetects shows that the model's checks fire: a band that
// stages a chunk before the band above has published all of it reads
// values of an older band.
func TestFastModelDetects(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	a, b := randomSymbols(rng, 200, 4), randomSymbols(rng, 200, 4)
	s := FastSchedule{Lanes: 2, WordBits: 4, Chunk: 3, Warps: 4}
	p, err := planFast(a, b, s.Lanes, s.WordBits)
	if err != nil {
		t.Fatal(err)
	}
	broken := 0
	for seed := range uint64(20) {
		s.Seed = seed
		sim := newFastSim(p, s)
		sim.lag = 2
		if _, err := sim.run(); errors.Is(err, errScheduleBroken) {
			broken++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if broken == 0 {
		t.Fatal("staging two columns early was never caught")
	}
}

func TestFastScheduleErrors(t *testing.T) {
	for _, s := range []FastSchedule{{}, {Lanes: 1, WordBits: 65, Chunk: 1, Warps: 1}, {Lanes: 1, WordBits: 8, Chunk: 0, Warps: 1}, {Lanes: 1, WordBits: 8, Chunk: 1, Warps: 0}} {
		if _, err := FastModel([]byte("ab"), []byte("b"), s); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
}
