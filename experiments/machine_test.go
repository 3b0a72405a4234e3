package experiments

import (
	"regexp"
	"runtime"
	"strings"
	"testing"
)

func TestSlug(t *testing.T) {
	for _, tc := range []struct {
		m    Machine
		want string
	}{
		{Machine{CPU: "Intel(R) Xeon(R) Processor @ 2.80GHz", Cores: 2, GPU: "none"}, "intel-xeon-2.80ghz-2c"},
		{Machine{CPU: "Intel(R) Xeon(R) CPU @ 2.80GHz", Cores: 2}, "intel-xeon-2.80ghz-2c"},
		{Machine{CPU: "Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz", Cores: 12, GPU: "NVIDIA GeForce RTX 2070"},
			"intel-core-i7-9750h-2.60ghz-12c-nvidia-geforce-rtx-2070"},
		{Machine{CPU: "AMD EPYC 7B13 64-Core Processor", Cores: 16, GPU: "NVIDIA H200"}, "amd-epyc-7b13-64-core-16c-nvidia-h200"},
		{Machine{CPU: "arm64", Cores: 8}, "arm64-8c"},
		{Machine{CPU: "", Cores: 1}, "unknown-1c"},
		{Machine{CPU: "  Weird/CPU:\tname  ", Cores: 4}, "weird-cpu-name-4c"},
	} {
		if got := tc.m.Slug(); got != tc.want {
			t.Errorf("%q: slug %q, want %q", tc.m.CPU, got, tc.want)
		}
	}
}

func TestCurrentMachine(t *testing.T) {
	m := CurrentMachine()
	t.Logf("%+v slug=%s", m, m.Slug())
	if m.CPU == "" || m.Cores != runtime.NumCPU() || m.GoVersion != runtime.Version() || m.Commit == "" {
		t.Errorf("machine %+v", m)
	}
	if m.GPU == "none" && m.GPUReason == "" {
		t.Error("no GPU and no reason")
	}
	if !regexp.MustCompile(`^[a-z0-9][a-z0-9.-]*-[0-9]+c(-[a-z0-9.-]+)?$`).MatchString(m.Slug()) {
		t.Errorf("slug %q is not of the form cpu-Nc[-gpu]", m.Slug())
	}
}

func TestParseCPUModel(t *testing.T) {
	cases := map[string]string{
		"processor\t: 0\nvendor_id\t: GenuineIntel\nmodel\t\t: 85\nmodel name\t: Intel(R) Xeon(R) Processor @ 2.80GHz\n" +
			"processor\t: 1\nmodel name\t: Intel(R) Xeon(R) Processor @ 2.80GHz\n": "Intel(R) Xeon(R) Processor @ 2.80GHz",
		"model name\t: AMD  EPYC   9R14\n": "AMD EPYC 9R14",
		"Processor\t: AArch64 Processor rev 4 (aarch64)\nprocessor\t: 0\nHardware\t: Qualcomm Technologies, Inc SDM845\n": "Qualcomm Technologies, Inc SDM845",
		"processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n":                                                    "",
		"": "",
	}
	for in, want := range cases {
		if got := parseCPUModel(strings.NewReader(in)); got != want {
			t.Errorf("parseCPUModel(%q) = %q, want %q", in, got, want)
		}
	}
	if runtime.GOOS == "linux" && (runtime.GOARCH == "amd64" || runtime.GOARCH == "386") {
		if m := cpuModel(); m == runtime.GOARCH {
			t.Error("cpuModel() found no model name in /proc/cpuinfo on x86 Linux")
		}
	}
}

func TestGPUStatus(t *testing.T) {
	for _, tc := range []struct {
		m      Machine
		want   string
		usable bool
	}{
		{Machine{GPU: "none", GPUReason: "cudaext: CUDA unavailable: no libcuda"}, "cudaext: CUDA unavailable: no libcuda", false},
		{Machine{GPU: "NVIDIA H100", GPUDetail: "compute 9.0, 132 SMs, 79.1 GiB"}, "available: NVIDIA H100, compute 9.0, 132 SMs, 79.1 GiB", true},
		{Machine{GPU: "NVIDIA H100", GPUDetail: "compute 9.0, 132 SMs, 79.1 GiB", GPUReason: "the kernels cannot run: no NVRTC"},
			"NVIDIA H100, compute 9.0, 132 SMs, 79.1 GiB, but the kernels cannot run: no NVRTC", false},
	} {
		if got := tc.m.GPUStatus(); got != tc.want || tc.m.GPUUsable() != tc.usable {
			t.Errorf("%+v: GPUStatus %q, usable %v; want %q, %v", tc.m, got, tc.m.GPUUsable(), tc.want, tc.usable)
		}
	}
}
