package experiments

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/internal/buildinfo"
)

// Machine describes where records were measured; every Record carries it.
type Machine struct {
	CPU       string // /proc/cpuinfo "model name", else GOARCH
	Cores     int    // logical cores (runtime.NumCPU)
	GPU       string // the device's name, or "none"
	GPUDetail string // its compute capability, SMs and memory; "" without one
	GPUReason string // why GPU is "none", or why its kernels cannot run; "" when they can
	GoVersion string // runtime.Version()
	Commit    string // short revision, "-dirty" with uncommitted changes, or "unknown"
}

// CurrentMachine returns this machine, found once per process: reading
// /proc/cpuinfo, asking cudaext for a device and (when the binary carries
// no VCS stamp) running git take milliseconds.
var CurrentMachine = sync.OnceValue(func() Machine {
	m := Machine{
		CPU:       cpuModel(),
		Cores:     runtime.NumCPU(),
		GoVersion: runtime.Version(),
		Commit:    buildinfo.Commit(),
		GPU:       "none",
	}
	if err := cudaext.Available(); err != nil {
		m.GPUReason = err.Error()
		return m
	}
	m.GPU = "cuda"
	if d, err := cudaext.Device(); err != nil {
		m.GPUDetail = err.Error()
	} else {
		if d.Name != "" {
			m.GPU = d.Name
		}
		m.GPUDetail = fmt.Sprintf("compute %s, %d SMs, %.1f GiB", d.Compute(), d.SMs, float64(d.TotalMemory)/(1<<30))
	}
	if err := cudaext.Ready(); err != nil {
		m.GPUReason = "the kernels cannot run: " + err.Error()
	}
	return m
})

// GPUUsable reports whether the GPU algorithms can run here.
func (m Machine) GPUUsable() bool { return m.GPU != "none" && m.GPUReason == "" }

// GPUStatus says in a line what the machine has: "available: " and the
// device, or why not.
func (m Machine) GPUStatus() string {
	switch {
	case m.GPU == "none":
		return m.GPUReason
	case m.GPUReason != "":
		return m.GPU + ", " + m.GPUDetail + ", but " + m.GPUReason
	}
	return "available: " + m.GPU + ", " + m.GPUDetail
}

// cpuModel returns the CPU model /proc/cpuinfo names (parseCPUModel), or
// GOARCH where it names none (other systems).
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	if m := parseCPUModel(f); m != "" {
		return m
	}
	return runtime.GOARCH
}

// parseCPUModel returns the first "model name" of a /proc/cpuinfo (x86),
// else its "Hardware" or "Processor" line (some ARM kernels), its runs of
// spaces made one; else "".
func parseCPUModel(r io.Reader) string {
	fallback := ""
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		key, value = strings.TrimSpace(key), strings.Join(strings.Fields(value), " ")
		switch {
		case value == "":
		case key == "model name":
			return value
		case key == "Hardware", key == "Processor":
			fallback = value
		}
	}
	return fallback
}

// Slug returns a stable, filesystem-safe name for the machine, for
// results/<machine>/: the CPU model in lower case without trademark signs
// and filler words, the logical cores, and the GPU where there is one, e.g.
// "intel-xeon-2.80ghz-2c". Only [a-z0-9.-] appear.
func (m Machine) Slug() string {
	s := slug(m.CPU, "(r)", "(tm)", "processor", "cpu", "@")
	if s == "" {
		s = "unknown"
	}
	s += "-" + strconv.Itoa(m.Cores) + "c"
	if m.GPU != "" && m.GPU != "none" {
		if g := slug(m.GPU, "(r)", "(tm)"); g != "" {
			s += "-" + g
		}
	}
	return s
}

// MachineEnv is the environment variable that names this machine's
// folder under results/ in place of Slug: two VMs of one CPU model and
// core count have one Slug, and a run on the second would be read as the
// first's. levlab's --name flags set it for the commands they run.
const MachineEnv = "LEVLAB_MACHINE"

// MachineID returns the name of this machine's folder under results/:
// $LEVLAB_MACHINE where set (CheckMachineName holds it), else Slug.
func MachineID() (string, error) {
	if name := os.Getenv(MachineEnv); name != "" {
		if err := CheckMachineName(name); err != nil {
			return "", fmt.Errorf("%s: %w", MachineEnv, err)
		}
		return name, nil
	}
	return CurrentMachine().Slug(), nil
}

// CheckMachineName says what is wrong with name as a machine's folder
// under results/, or nil: 1 to 64 of [a-z0-9.-], starting with a letter or
// digit, and not "published" (the reports' numbers) or "bench".
func CheckMachineName(name string) error {
	ok := name != "" && len(name) <= 64 && name[0] != '.' && name[0] != '-'
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-') {
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("machine name %q: want 1 to 64 of a-z, 0-9, '.' and '-', starting with a letter or digit", name)
	}
	if name == "published" || name == "bench" {
		return fmt.Errorf("machine name %q: the results folder uses it; choose another", name)
	}
	return nil
}

// slug lower-cases s, removes the given words (whole words, or signs such
// as "(r)" anywhere), and joins what is left with single dashes.
func slug(s string, drop ...string) string {
	s = strings.ToLower(s)
	var words []string
	for _, w := range strings.Fields(s) {
		for _, d := range drop {
			if strings.HasPrefix(d, "(") {
				w = strings.ReplaceAll(w, d, "")
			} else if w == d {
				w = ""
			}
		}
		words = append(words, w)
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.Join(words, " ") {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	return strings.Trim(b.String(), ".")
}
