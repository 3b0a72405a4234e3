package sysmem

import (
	"os"
	"path/filepath"
	"testing"
)

// fake returns an fsys over a folder holding files (path: content).
func fake(t *testing.T, files map[string]string, rlimit uint64) fsys {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return fsys{root: root, rlimit: func() (uint64, bool) { return rlimit, rlimit != 0 }}
}

func TestCeiling(t *testing.T) {
	const gib = 1 << 30
	for _, tc := range []struct {
		name   string
		files  map[string]string
		rlimit uint64
		want   Bound
	}{
		{"nothing readable", nil, 0, Bound{Bytes: Unlimited}},
		{"ulimit -v less what is mapped", map[string]string{
			"/proc/self/status": "Name:\tlevlab\nVmSize:\t  1048576 kB\n",
		}, 3 * gib, Bound{Bytes: 2 * gib, By: "ulimit -v"}},
		{"cgroup v2 at the mount's root", map[string]string{
			"/proc/self/cgroup":             "0::/user.slice/x.scope\n",
			"/sys/fs/cgroup/memory.max":     "4294967296\n",
			"/sys/fs/cgroup/memory.current": "1073741824\n",
		}, 0, Bound{Bytes: 3 * gib, By: "the cgroup memory limit"}},
		{"cgroup v2 max", map[string]string{
			"/proc/self/cgroup":                       "0::/a\n",
			"/sys/fs/cgroup/a/memory.max":             "max\n",
			"/sys/fs/cgroup/a/memory.current":         "1073741824\n",
			"/sys/fs/cgroup/memory.max":               "max\n",
			"/sys/fs/cgroup/memory.current":           "1073741824\n",
			"/sys/fs/cgroup/unrelated/memory.max":     "1\n",
			"/sys/fs/cgroup/unrelated/memory.current": "0\n",
		}, 0, Bound{Bytes: Unlimited}},
		{"cgroup v1, the parent binds", map[string]string{
			"/proc/self/cgroup": "4:memory:/outer/inner\n3:cpuset:/\n",
			"/sys/fs/cgroup/memory/outer/inner/memory.limit_in_bytes": "9223372036854771712\n",
			"/sys/fs/cgroup/memory/outer/inner/memory.usage_in_bytes": "100\n",
			"/sys/fs/cgroup/memory/outer/memory.limit_in_bytes":       "2147483648\n",
			"/sys/fs/cgroup/memory/outer/memory.usage_in_bytes":       "1073741824\n",
		}, 0, Bound{Bytes: 1 * gib, By: "the cgroup memory limit"}},
		{"the lower of ulimit -v and the cgroup", map[string]string{
			"/proc/self/status":             "VmSize:\t0 kB\n",
			"/proc/self/cgroup":             "0::/\n",
			"/sys/fs/cgroup/memory.max":     "8589934592\n",
			"/sys/fs/cgroup/memory.current": "0\n",
		}, 5 * gib, Bound{Bytes: 5 * gib, By: "ulimit -v"}},
		{"more mapped than allowed", map[string]string{
			"/proc/self/status": "VmSize:\t4194304 kB\n",
		}, 1 * gib, Bound{Bytes: 0, By: "ulimit -v"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ceiling(fake(t, tc.files, tc.rlimit)); got != tc.want {
				t.Errorf("ceiling = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestMeminfo(t *testing.T) {
	f := fake(t, map[string]string{"/proc/meminfo": "MemTotal:       24684084 kB\nMemFree: 1 kB\nMemAvailable:   1024 kB\n"}, 0)
	if got := meminfo(f, "MemTotal:"); got != 24684084*1024 {
		t.Errorf("MemTotal = %d", got)
	}
	if got := meminfo(f, "MemAvailable:"); got != 1<<20 {
		t.Errorf("MemAvailable = %d", got)
	}
	if got := meminfo(f, "Nope:"); got != Unlimited {
		t.Errorf("a missing field = %d, want Unlimited", got)
	}
}

// TestTotalKept: a read of the machine's /proc/meminfo keeps MemTotal, and
// Total then reads no file; a test's file is never kept.
func TestTotalKept(t *testing.T) {
	old := memTotal.Load()
	t.Cleanup(func() { memTotal.Store(old) })
	memTotal.Store(0)
	f := fake(t, map[string]string{"/proc/meminfo": "MemTotal: 4 kB\nMemAvailable: 1 kB\n"}, 0)
	meminfo(f, "MemAvailable:")
	if got := memTotal.Load(); got != 0 {
		t.Errorf("a test's meminfo was kept: MemTotal %d", got)
	}
	if _, err := os.Stat("/proc/meminfo"); err != nil {
		t.Skip("no /proc/meminfo here")
	}
	Available(0)
	kept := memTotal.Load()
	if kept <= 0 {
		t.Fatal("Available kept no MemTotal")
	}
	memTotal.Store(kept + 4096) // no file holds this: Total must not read one
	if got := Total(0); got != kept+4096 {
		t.Errorf("Total = %d, want the kept %d", got, kept+4096)
	}
}

func TestSize(t *testing.T) {
	for x, want := range map[int64]string{0: "0 bytes", 1023: "1023 bytes", 1024: "1.0 KiB", 3 << 29: "1.5 GiB"} {
		if got := Size(x); got != want {
			t.Errorf("Size(%d) = %s, want %s", x, got, want)
		}
	}
	if got := (Bound{Bytes: 1 << 30, By: "ulimit -v"}).String(); got != "1.0 GiB more (ulimit -v)" {
		t.Errorf("Bound.String = %s", got)
	}
}

// TestSysinfoTotalIsMemTotal: where sysinfo(2) answers, it gives the
// bytes /proc/meminfo's MemTotal line does, so that Total is one number
// whichever way it learnt it.
func TestSysinfoTotalIsMemTotal(t *testing.T) {
	got, ok := sysinfoTotal()
	if !ok {
		t.Skip("no sysinfo(2) here")
	}
	want := meminfo(fsys{}, "MemTotal:")
	if want == Unlimited {
		t.Skip("no /proc/meminfo here")
	}
	if got != want {
		t.Errorf("sysinfo total %d bytes; /proc/meminfo MemTotal %d", got, want)
	}
}
