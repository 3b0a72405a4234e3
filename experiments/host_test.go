package experiments

import (
	"os"
	"strings"
	"testing"
)

func TestParseMemTotal(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"MemTotal:       24683620 kB\nMemFree:  1 kB\n", 24683620 << 10},
		{"MemFree:        1 kB\n", 0},
		{"MemTotal:\n", 0},
		{"MemTotal: x kB\n", 0},
		{"MemTotal: -5 kB\n", 0},
		{"MemTotal: 5 MB\n", 0},
	} {
		if got := parseMemTotal(strings.NewReader(c.in)); got != c.want {
			t.Errorf("parseMemTotal(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestParseClockSMT(t *testing.T) {
	for _, c := range []struct {
		in      string
		mhz     float64
		threads int
		virtual bool
	}{
		{"processor\t: 0\ncpu MHz\t\t: 2096.012\nsiblings\t: 2\ncpu cores\t: 2\nflags\t\t: fpu sse2 hypervisor avx2\nprocessor\t: 1\ncpu MHz\t\t: 3000\nflags : fpu\n", 2096.012, 1, true},
		{"processor : 0\ncpu MHz : 2800.000\nsiblings : 4\ncpu cores : 2\nflags : fpu sse2 avx2\n", 2800, 2, false},
		{"processor : 0\ncpu MHz : 2800.000\nsiblings : 4\ncpu cores : 2\nflags : fpu hypervisorx\n", 2800, 2, false}, // a flag whole, not a prefix
		{"processor : 0\nBogoMIPS : 50\n", 0, 0, false},               // an ARM kernel says neither
		{"cpu MHz : 1e9\nsiblings : 3\ncpu cores : 2\n", 0, 0, false}, // out of range, not a whole ratio
		{"siblings : 2\ncpu cores : 0\n", 0, 0, false},
	} {
		mhz, threads, virtual := parseClockSMT(strings.NewReader(c.in))
		if mhz != c.mhz || threads != c.threads || virtual != c.virtual {
			t.Errorf("parseClockSMT(%q) = %v, %d, %v; want %v, %d, %v", c.in, mhz, threads, virtual, c.mhz, c.threads, c.virtual)
		}
	}
}

// CurrentHost says what this system says; on Linux, its memory at least.
func TestCurrentHost(t *testing.T) {
	h := CurrentHost()
	if h.MemoryBytes < 0 || h.CPUMHz < 0 || h.ThreadsPerCore < 0 {
		t.Errorf("CurrentHost() = %+v: negative", h)
	}
	if _, err := os.Stat("/proc/meminfo"); err == nil && h.MemoryBytes == 0 {
		t.Errorf("CurrentHost() = %+v: /proc/meminfo is there, no memory read", h)
	}
}
