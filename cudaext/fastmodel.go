package cudaext

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// FastSchedule is the geometry of cuda-fast's schedule for FastModel: how
// many lanes a warp has, how many rows a lane holds, how many columns a
// band hands to the next at once and how many persistent warps share the
// bands. The kernel runs with Lanes 32, WordBits 32 (LV_WORD_BITS) and the
// warps the device can hold; small values make a short pair of strings
// cross many bands, chunks and warps.
type FastSchedule struct {
	Lanes    int    // lanes per warp, >= 1 (32 on a GPU)
	WordBits int    // rows per lane, 1..64
	Chunk    int    // columns per hand-off between bands, >= 1
	Warps    int    // persistent warps, >= 1
	Seed     uint64 // chooses the interleaving of the warps
}

// GPUSchedule is the schedule the kernel runs with, for a given number of
// warps and chunk.
func GPUSchedule(warps, chunk int) FastSchedule {
	return FastSchedule{Lanes: 32, WordBits: wordBits, Chunk: chunk, Warps: warps}
}

func (s FastSchedule) check() error {
	switch {
	case s.Lanes < 1 || s.Lanes > 1024:
		return fmt.Errorf("cudaext: schedule: lanes = %d is out of range [1, 1024]", s.Lanes)
	case s.WordBits < 1 || s.WordBits > 64:
		return fmt.Errorf("cudaext: schedule: word bits = %d is out of range [1, 64]", s.WordBits)
	case s.Chunk < 1:
		return fmt.Errorf("cudaext: schedule: chunk = %d must be positive", s.Chunk)
	case s.Warps < 1 || s.Warps > 1<<16:
		return fmt.Errorf("cudaext: schedule: warps = %d is out of range [1, 65536]", s.Warps)
	}
	return nil
}

// errScheduleBroken is wrapped by the model's reports of a schedule that
// would read stale data, overwrite unread data or deadlock on a GPU.
var errScheduleBroken = errors.New("cudaext: cuda-fast schedule broken")

// FastModel runs cuda-fast's schedule on the CPU, statement for statement
// as kernels/fast.cu does, and returns the distance: the lanes of each warp
// step in lock-step, carries pass between lanes as __shfl_up_sync passes
// them, and warps interleave in a random order (from s.Seed), each blocking
// where the kernel spins on the band above's progress counter. It checks
// what the GPU cannot: that every boundary value a band stages was written
// by the band above and is read before it is overwritten, and that the
// warps never all wait. It exists to prove the schedule in tests; it is
// slow (about a microsecond per 32 cells).
func FastModel[S Symbol](a, b []S, s FastSchedule) (int, error) {
	if err := s.check(); err != nil {
		return 0, err
	}
	switch {
	case len(a) == 0:
		return len(b), nil
	case len(b) == 0:
		return len(a), nil
	}
	p, err := planFast(a, b, s.Lanes, s.WordBits)
	if err != nil {
		return 0, err
	}
	return newFastSim(p, s).run()
}

// fastSim is the device memory of one cuda-fast launch and its warps.
type fastSim struct {
	p        fastPlan
	s        FastSchedule
	mask     uint64  // the low WordBits bits
	boundary []int8  // the boundary row all bands share
	writer   []int32 // band+1 that wrote each boundary cell, 0 for none
	read     []bool  // whether that value has been staged by its reader
	progress []int   // per band: columns published
	lag      int     // tests: columns a band may stage before they are published (0)
	result   int64   // the score shares added so far
	warps    []*simWarp
}

// simWarp is one warp's registers: per lane, and the warp's loop counters.
type simWarp struct {
	id, band                int
	t, stageAt, si, postIn  int
	pv, mv, eq, carry, hout []uint64
	stage                   []int8
}

func newFastSim(p fastPlan, s FastSchedule) *fastSim {
	w := min(s.Warps, p.bands)
	sim := &fastSim{
		p: p, s: s,
		mask:     ^uint64(0) >> (64 - s.WordBits),
		boundary: make([]int8, p.n),
		writer:   make([]int32, p.n),
		read:     make([]bool, p.n),
		progress: make([]int, p.bands),
	}
	sim.s.Warps = w
	for id := range w {
		sim.warps = append(sim.warps, &simWarp{
			id: id, band: id,
			pv: make([]uint64, s.Lanes), mv: make([]uint64, s.Lanes), eq: make([]uint64, s.Lanes),
			carry: make([]uint64, s.Lanes), hout: make([]uint64, s.Lanes),
			stage: make([]int8, s.Chunk),
		})
		sim.startBand(sim.warps[id])
	}
	return sim
}

func (sim *fastSim) run() (int, error) {
	rng := rand.New(rand.NewPCG(sim.s.Seed, 0x1e71ab))
	live := len(sim.warps)
	for live > 0 {
		// Pick a warp at random and let it run a few steps, as a
		// scheduler might; a warp that waits gives way.
		order := rng.Perm(len(sim.warps))
		progressed := false
		for _, i := range order {
			w := sim.warps[i]
			if w.band >= sim.p.bands {
				continue
			}
			for range 1 + rng.IntN(8) {
				ok, err := sim.step(w)
				if err != nil {
					return 0, err
				}
				if !ok {
					break
				}
				progressed = true
				if w.band >= sim.p.bands {
					live--
					break
				}
			}
		}
		if !progressed && live > 0 {
			return 0, fmt.Errorf("%w: every live warp waits (deadlock)", errScheduleBroken)
		}
	}
	return sim.p.n + int(sim.result), nil
}

// startBand sets a warp's registers as lv_band's prologue does.
func (sim *fastSim) startBand(w *simWarp) {
	if w.band >= sim.p.bands {
		return
	}
	for l := range w.pv {
		w.pv[l], w.mv[l], w.carry[l], w.eq[l] = sim.mask, 0, 0, 0
	}
	w.eq[0] = sim.match(w.band, 0, 0)
	w.t, w.stageAt, w.si, w.postIn = 0, 0, 0, sim.s.Chunk
}

// match is lv_lookup of column j's code: the match word of lane l of band.
func (sim *fastSim) match(band, j, l int) uint64 {
	return sim.p.peq[int(sim.p.codes[j])*sim.p.stride+band*sim.s.Lanes+l]
}

// step runs one iteration of lv_band's loop for warp w, or its epilogue
// (the score share and the next band) after the last. It returns false
// when the warp waits for the band above.
func (sim *fastSim) step(w *simWarp) (bool, error) {
	p, s := &sim.p, &sim.s
	lanes, n := s.Lanes, p.n
	steps := n + lanes - 1
	if w.t == steps {
		sim.result += int64(sim.share(w))
		w.band += s.Warps
		sim.startBand(w)
		return true, nil
	}
	t, band := w.t, w.band
	hasHin := band > 0
	if hasHin && t == w.stageAt && t < n {
		end := min(t+s.Chunk, n)
		if sim.progress[band-1] < end-sim.lag {
			return false, nil // spinning on lv_load_acquire
		}
		w.stageAt += s.Chunk
		w.si = 0
		for i := t; i < end; i++ {
			if got := sim.writer[i]; got != int32(band) {
				return false, fmt.Errorf("%w: band %d stages column %d written by band %d, want band %d", errScheduleBroken, band, i, got-1, band-1)
			}
			sim.read[i] = true
			w.stage[i-t] = sim.boundary[i]
		}
	}
	for l := range lanes {
		j := t - l
		var next uint64
		if j+1 >= 0 && j+1 < n {
			next = sim.match(band, j+1, l)
		}
		w.hout[l] = 0
		if j >= 0 && j < n {
			var hin int
			switch {
			case l != 0:
				hin = int(int64(w.carry[l]))
			case !hasHin:
				hin = 1
			default:
				hin = int(w.stage[w.si])
			}
			hout := sim.advance(&w.pv[l], &w.mv[l], w.eq[l], hin)
			w.hout[l] = uint64(int64(hout))
			if l == lanes-1 && band != p.bands-1 {
				if err := sim.publish(w, j, hout); err != nil {
					return false, err
				}
			}
		}
		w.eq[l] = next
	}
	w.si++
	// __shfl_up_sync(…, hout, 1): lane l gets lane l-1's value; lane 0
	// keeps its own.
	for l := lanes - 1; l >= 1; l-- {
		w.carry[l] = w.hout[l-1]
	}
	w.carry[0] = w.hout[0]
	w.t++
	return true, nil
}

// publish is lane 31's write of hout to the boundary row, and the release
// of its progress every chunk columns.
func (sim *fastSim) publish(w *simWarp, j, hout int) error {
	n := sim.p.n
	cell := j
	if sim.writer[cell] != 0 && !sim.read[cell] {
		return fmt.Errorf("%w: band %d overwrites column %d before the band below band %d has read it", errScheduleBroken, w.band, j, sim.writer[cell]-1)
	}
	sim.boundary[cell] = int8(hout)
	sim.writer[cell] = int32(w.band + 1)
	sim.read[cell] = false
	w.postIn--
	if w.postIn == 0 || j+1 == n {
		sim.progress[w.band] = j + 1
		w.postIn = sim.s.Chunk
	}
	return nil
}

// advance is lv_myers_step on WordBits-bit words.
func (sim *fastSim) advance(pv, mv *uint64, eq uint64, hin int) int {
	mask, top := sim.mask, uint(sim.s.WordBits-1)
	var neg, pos uint64
	if hin < 0 {
		neg = 1
	} else if hin > 0 {
		pos = 1
	}
	xv := eq | *mv
	eq |= neg
	xh := ((((eq & *pv) + *pv) & mask) ^ *pv) | eq
	ph := (*mv | ^(xh | *pv)) & mask
	mh := *pv & xh
	hout := int(ph>>top) - int(mh>>top)
	ph = (ph<<1 | pos) & mask
	mh = (mh<<1 | neg) & mask
	*pv = (mh | ^(xv | ph)) & mask
	*mv = ph & xv
	return hout
}

// share is lv_share: the warp's sum of final vertical deltas over real rows.
func (sim *fastSim) share(w *simWarp) int {
	s := 0
	for l := range sim.s.Lanes {
		row0 := (w.band*sim.s.Lanes + l) * sim.s.WordBits
		var valid uint64
		switch {
		case row0+sim.s.WordBits <= sim.p.m:
			valid = sim.mask
		case row0 < sim.p.m:
			valid = 1<<(sim.p.m-row0) - 1
		}
		s += bits.OnesCount64(w.pv[l]&valid) - bits.OnesCount64(w.mv[l]&valid)
	}
	return s
}
