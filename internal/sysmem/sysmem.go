// Package sysmem says how much memory this process may still use: the
// machine's, less what the kernel counts as in use, and the limits a user
// or a container put on the process (ulimit -v, the cgroup's memory
// limit), which the Go runtime does not check before it allocates: past
// them an allocation ends the process with an out-of-memory trace.
package sysmem

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
)

// Unlimited stands for a bound that is not set.
const Unlimited = math.MaxInt64

// Bound is how many more bytes this process may allocate before one
// limit refuses, and that limit's name for people.
type Bound struct {
	Bytes int64  // Unlimited when no limit applies
	By    string // "ulimit -v", "the cgroup memory limit", "" when none
}

// String says the bound for an error message: "1.2 GiB more (ulimit -v)".
func (b Bound) String() string {
	if b.Bytes == Unlimited {
		return "no limit"
	}
	return fmt.Sprintf("%s more (%s)", Size(b.Bytes), b.By)
}

// Ceiling returns the lowest of the limits put on this process — ulimit -v
// (RLIMIT_AS, less the address space already mapped) and the memory limit
// of its cgroup (v1 or v2, less what the cgroup uses) — or Unlimited where
// none is set or none can be read. It reads them anew on every call.
func Ceiling() Bound { return ceiling(osFS) }

// Available returns the bytes this process may use now: the lower of the
// machine's available memory (MemAvailable in /proc/meminfo) and Ceiling.
// Where neither can be read it returns fallback.
func Available(fallback int64) int64 {
	avail := meminfo(osFS, "MemAvailable:")
	if c := Ceiling(); c.Bytes < avail {
		avail = c.Bytes
	}
	if avail == Unlimited {
		return fallback
	}
	return avail
}

// Room returns Available with the name of what bounds it: "ulimit -v",
// "the cgroup memory limit" or "the machine's available memory"; Bytes is
// Unlimited where nothing can be read.
func Room() Bound {
	b := Ceiling()
	if avail := meminfo(osFS, "MemAvailable:"); avail < b.Bytes {
		b = Bound{Bytes: avail, By: "the machine's available memory"}
	}
	return b
}

// Total returns the machine's physical memory (MemTotal), or fallback
// where it cannot be read. It asks sysinfo(2) (Linux), or reads
// /proc/meminfo, only when no call of this package has learnt it yet:
// every lev call asks for it (the matrix limit), and a levlab distance
// starts a thousand times under levlab verify.
func Total(fallback int64) int64 {
	if t := memTotal.Load(); t > 0 {
		return t
	}
	if t, ok := sysinfoTotal(); ok {
		memTotal.Store(t)
		return t
	}
	if t := meminfo(osFS, "MemTotal:"); t != Unlimited {
		return t
	}
	return fallback
}

// memTotal is MemTotal as this process last read it from the real
// /proc/meminfo, 0 before: the machine's memory does not change while
// levlab runs.
var memTotal atomic.Int64

// fsys reads the files the bounds come from; tests give a folder of their
// own.
type fsys struct {
	root   string                       // prefix of every path
	rlimit func() (cur uint64, ok bool) // RLIMIT_AS
}

var osFS = fsys{root: "", rlimit: rlimitAS}

func (f fsys) read(path string) ([]byte, error) { return os.ReadFile(f.root + path) }

// meminfo returns the field of /proc/meminfo in bytes, or Unlimited.
func meminfo(f fsys, field string) int64 {
	data, err := f.read("/proc/meminfo")
	if err != nil {
		return Unlimited
	}
	if f.root == "" { // the machine's file, not a test's
		if t := kiBField(data, "MemTotal:"); t != Unlimited {
			memTotal.Store(t)
		}
	}
	return kiBField(data, field)
}

// kiBField returns the value of a "Name:   123 kB" line, in bytes.
func kiBField(data []byte, field string) int64 {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == field {
			kib, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil || kib < 0 || kib > Unlimited/1024 {
				return Unlimited
			}
			return kib * 1024
		}
	}
	return Unlimited
}

func ceiling(f fsys) Bound {
	b := Bound{Bytes: Unlimited}
	if cur, ok := f.rlimit(); ok && cur < math.MaxInt64 {
		status, _ := f.read("/proc/self/status")
		mapped := kiBField(status, "VmSize:")
		if mapped == Unlimited {
			mapped = 0
		}
		b = Bound{Bytes: max(int64(cur)-mapped, 0), By: "ulimit -v"}
	}
	if c := cgroupRoom(f); c < b.Bytes {
		b = Bound{Bytes: c, By: "the cgroup memory limit"}
	}
	return b
}

// cgroupRoom returns the limit less the usage of the tightest cgroup on
// the way from this process's cgroup up to the root, v2 or v1, or
// Unlimited.
func cgroupRoom(f fsys) int64 {
	data, err := f.read("/proc/self/cgroup")
	if err != nil {
		return Unlimited
	}
	room := int64(Unlimited)
	for line := range strings.Lines(string(data)) {
		parts := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var base, limitFile, usageFile string
		switch {
		case parts[0] == "0" && parts[1] == "":
			base, limitFile, usageFile = "/sys/fs/cgroup", "memory.max", "memory.current"
		case slices.Contains(strings.Split(parts[1], ","), "memory"):
			base, limitFile, usageFile = "/sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes"
		default:
			continue
		}
		// A container often sees its own cgroup as the root of the mount
		// while /proc/self/cgroup names the host's path: both are tried,
		// and every level up to the root, since a parent's limit binds too.
		for _, dir := range ancestors(parts[2]) {
			limit := number(f, filepath.Join(base, dir, limitFile))
			if limit == Unlimited {
				continue
			}
			usage := number(f, filepath.Join(base, dir, usageFile))
			if usage == Unlimited {
				usage = 0
			}
			room = min(room, max(limit-usage, 0))
		}
	}
	return room
}

// ancestors returns p and each folder above it, up to "/".
func ancestors(p string) []string {
	p = filepath.Clean("/" + p)
	out := []string{p}
	for p != "/" {
		p = filepath.Dir(p)
		out = append(out, p)
	}
	return out
}

// number reads a file holding one number of bytes ("max" and absurd
// values read as Unlimited, as does a missing file).
func number(f fsys, path string) int64 {
	data, err := f.read(path)
	if err != nil {
		return Unlimited
	}
	s := strings.TrimSpace(string(data))
	n, err := strconv.ParseInt(s, 10, 64)
	// cgroup v1 writes "no limit" as the largest page-aligned int64.
	if err != nil || n < 0 || n >= math.MaxInt64-(1<<20) {
		return Unlimited
	}
	return n
}

// Size writes a byte count for people: "512 bytes", "1.5 GiB".
func Size[T int | int64 | uint64](x T) string {
	if x < 1024 {
		return fmt.Sprintf("%d bytes", x)
	}
	v, unit := float64(x)/1024, "KiB"
	for _, u := range []string{"MiB", "GiB", "TiB", "PiB", "EiB"} {
		if v < 1024 {
			break
		}
		v, unit = v/1024, u
	}
	return fmt.Sprintf("%.1f %s", v, unit)
}
