package experiments

import (
	"bufio"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/cpu"
)

// Host is what the operating system says of this machine beyond what each
// record carries (Machine): its memory, the clock and the threads a core
// that /proc/cpuinfo reports, the vector extensions Go found, and the
// kernel's release. A field the system does not say is zero or "".
type Host struct {
	MemoryBytes    int64    // /proc/meminfo MemTotal
	CPUMHz         float64  // /proc/cpuinfo "cpu MHz" of the first CPU: on a VM, what the hypervisor reports
	ThreadsPerCore int      // /proc/cpuinfo "siblings" over "cpu cores": 2 with SMT, 1 without
	Virtual        bool     // /proc/cpuinfo's flags name a hypervisor: a virtual machine, its cores virtual CPUs
	ISA            []string // the vector and bit extensions Go detected (golang.org/x/sys/cpu), of those levlab's kernels can use
	OSRelease      string   // /proc/sys/kernel/osrelease
}

// CurrentHost describes this machine as Host says; reading two small
// files of /proc takes under a millisecond.
func CurrentHost() Host {
	var h Host
	if f, err := os.Open("/proc/meminfo"); err == nil {
		h.MemoryBytes = parseMemTotal(f)
		f.Close()
	}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		h.CPUMHz, h.ThreadsPerCore, h.Virtual = parseClockSMT(f)
		f.Close()
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		h.OSRelease = strings.TrimSpace(string(b))
	}
	for _, x := range []struct {
		name string
		has  bool
	}{
		{"popcnt", cpu.X86.HasPOPCNT}, {"bmi2", cpu.X86.HasBMI2},
		{"avx2", cpu.X86.HasAVX2}, {"avx512f", cpu.X86.HasAVX512F},
		{"avx512bw", cpu.X86.HasAVX512BW}, {"avx512dq", cpu.X86.HasAVX512DQ},
		{"avx512vl", cpu.X86.HasAVX512VL}, {"avx512vbmi2", cpu.X86.HasAVX512VBMI2},
		{"asimd", cpu.ARM64.HasASIMD}, {"sve", cpu.ARM64.HasSVE},
	} {
		if x.has {
			h.ISA = append(h.ISA, x.name)
		}
	}
	return h
}

// parseMemTotal returns MemTotal of a /proc/meminfo in bytes, 0 where it
// names none.
func parseMemTotal(r io.Reader) int64 {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if !ok || key != "MemTotal" {
			continue
		}
		f := strings.Fields(value)
		if len(f) == 0 {
			return 0
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb < 0 {
			return 0
		}
		if len(f) > 1 && f[1] != "kB" {
			return 0
		}
		return kb << 10
	}
	return 0
}

// parseClockSMT returns the first CPU's "cpu MHz" of a /proc/cpuinfo,
// its threads a core ("siblings" over "cpu cores"), 0 for what it does not
// say, and whether its flags name a hypervisor (a virtual machine).
func parseClockSMT(r io.Reader) (mhz float64, threads int, virtual bool) {
	var siblings, cores int
	flags := false
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch key {
		case "cpu MHz":
			if mhz == 0 {
				mhz, _ = strconv.ParseFloat(value, 64)
			}
		case "siblings":
			if siblings == 0 {
				siblings, _ = strconv.Atoi(value)
			}
		case "cpu cores":
			if cores == 0 {
				cores, _ = strconv.Atoi(value)
			}
		case "flags":
			if !flags {
				flags, virtual = true, slices.Contains(strings.Fields(value), "hypervisor")
			}
		case "processor":
			if value != "0" && mhz != 0 && siblings != 0 && cores != 0 && flags {
				mhz, threads = finishSMT(mhz, siblings, cores)
				return mhz, threads, virtual
			}
		}
	}
	mhz, threads = finishSMT(mhz, siblings, cores)
	return mhz, threads, virtual
}

func finishSMT(mhz float64, siblings, cores int) (float64, int) {
	if mhz < 0 || mhz > 1e5 {
		mhz = 0
	}
	if siblings <= 0 || cores <= 0 || siblings%cores != 0 {
		return mhz, 0
	}
	return mhz, siblings / cores
}
