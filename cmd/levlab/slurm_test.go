package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// slurmCluster is a single-node Slurm a test started on this machine: its
// controller and its node daemon on loopback, with a configuration of its
// own (SLURM_CONF), stopped when the test ends.
type slurmCluster struct {
	conf string
	env  []string
}

// requireSlurm returns the path of cmd, or skips the test naming what is
// missing, or fails where LEVLAB_REQUIRE_SLURM=1 (make test sets it).
func requireSlurm(t *testing.T, cmds ...string) {
	t.Helper()
	for _, c := range cmds {
		if _, err := exec.LookPath(c); err != nil {
			msg := fmt.Sprintf("no %s (Debian: apt-get install slurmctld slurmd slurm-client munge; make deps installs them)", c)
			if os.Getenv("LEVLAB_REQUIRE_SLURM") == "1" {
				t.Fatalf("%s; LEVLAB_REQUIRE_SLURM=1 forbids skipping", msg)
			}
			t.Skip(msg)
		}
	}
	if os.Geteuid() != 0 {
		msg := "the Slurm test starts munged, slurmctld and slurmd, which needs root (as in CI)"
		if os.Getenv("LEVLAB_REQUIRE_SLURM") == "1" {
			t.Fatalf("%s; LEVLAB_REQUIRE_SLURM=1 forbids skipping", msg)
		}
		t.Skip(msg)
	}
}

// freePort returns a TCP port of 127.0.0.1 nobody listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startDaemon starts a daemon in its own process group, ended (SIGTERM,
// then SIGKILL) when the test ends.
func startDaemon(t *testing.T, env []string, log string, name string, args ...string) {
	t.Helper()
	f, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Stdout, cmd.Stderr = env, f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		f.Close()
	})
}

// startSlurm starts munged (unless one answers already), slurmctld and
// slurmd on this machine, as Slurm's own docs set up a one-node cluster:
// process tracking by /proc (proctrack/linuxproc), no task plugin, no
// cgroups, no accounting. It waits until the node is idle.
func startSlurm(t *testing.T) *slurmCluster {
	t.Helper()
	requireSlurm(t, "munged", "munge", "slurmctld", "slurmd", "sbatch", "sinfo")
	dir := t.TempDir()
	if exec.Command("sh", "-c", "munge -n | unmunge").Run() != nil {
		// munged runs as its own user, with the key the package made.
		if out, err := exec.Command("sh", "-c", "mkdir -p /run/munge && chown munge:munge /run/munge && runuser -u munge -- /usr/sbin/munged").CombinedOutput(); err != nil {
			t.Fatalf("starting munged: %v\n%s", err, out)
		}
		t.Cleanup(func() { exec.Command("runuser", "-u", "munge", "--", "/usr/sbin/munged", "--stop").Run() })
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	for _, d := range []string{"state", "spool"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	conf := filepath.Join(dir, "slurm.conf")
	text := fmt.Sprintf(`ClusterName=levlabtest
SlurmctldHost=%[1]s(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
SlurmctldPort=%[2]d
SlurmdPort=%[3]d
StateSaveLocation=%[4]s/state
SlurmdSpoolDir=%[4]s/spool
SlurmctldPidFile=%[4]s/slurmctld.pid
SlurmdPidFile=%[4]s/slurmd.pid
SlurmctldLogFile=%[4]s/slurmctld.log
SlurmdLogFile=%[4]s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=%[5]d RealMemory=1000 State=UNKNOWN
PartitionName=levlab Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, host, freePort(t), freePort(t), dir, runtime.NumCPU())
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "SLURM_CONF="+conf)
	startDaemon(t, env, filepath.Join(dir, "slurmctld.out"), "slurmctld", "-D", "-f", conf)
	startDaemon(t, env, filepath.Join(dir, "slurmd.out"), "slurmd", "-D", "-N", host, "-f", conf)
	deadline := time.Now().Add(60 * time.Second)
	for {
		cmd := exec.Command("sinfo", "-h", "-o", "%t")
		cmd.Env = env
		out, _ := cmd.CombinedOutput()
		if strings.TrimSpace(string(out)) == "idle" {
			break
		}
		if time.Now().After(deadline) {
			logs := ""
			for _, l := range []string{"slurmctld.log", "slurmd.log", "slurmctld.out", "slurmd.out"} {
				b, _ := os.ReadFile(filepath.Join(dir, l))
				logs += "\n== " + l + "\n" + string(b)
			}
			t.Fatalf("the Slurm node is not idle after 60 s (sinfo: %q)%s", out, logs)
		}
		time.Sleep(500 * time.Millisecond)
	}
	return &slurmCluster{conf: conf, env: env}
}

// TestSlurmArray runs levlab matrix as a Slurm job array on a one-node
// Slurm the test starts (sbatch --array=0-2, each task --shards 3 with its
// index from SLURM_ARRAY_TASK_ID), then merges the shards: the output is
// one process's, byte for byte.
func TestSlurmArray(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Slurm; not in -short")
	}
	c := startSlurm(t)
	bin := buildLevlab(t)
	a, _, fasta := shardInputs(t)
	out := t.TempDir()
	for _, job := range []struct {
		name  string
		args  []string
		files []string
	}{{"top", []string{"--top", "2"}, []string{a}}, {"fasta", []string{"--max", "30"}, []string{fasta}}} {
		dir := filepath.Join(out, job.name)
		os.MkdirAll(dir, 0o755)
		script := filepath.Join(out, job.name+".sh")
		line := append(append([]string{bin, "matrix", "--shards", "3", "--workers", "1", "--out", dir}, job.args...), job.files...)
		os.WriteFile(script, []byte("#!/bin/sh\nexec "+strings.Join(line, " ")+"\n"), 0o755)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		sb := exec.CommandContext(ctx, "sbatch", "--wait", "--array=0-2", "--cpus-per-task=1",
			"--output="+filepath.Join(out, job.name+"-%A_%a.out"), script)
		sb.Env = c.env
		msg, err := sb.CombinedOutput()
		cancel()
		if err != nil {
			logs, _ := filepath.Glob(filepath.Join(out, job.name+"-*.out"))
			var tasks string
			for _, l := range logs {
				b, _ := os.ReadFile(l)
				tasks += "\n== " + l + "\n" + string(b)
			}
			t.Fatalf("sbatch --array=0-2 %s: %v\n%s%s", job.name, err, msg, tasks)
		}
		want, _, _ := levlab(t, append(append([]string{"matrix"}, job.args...), job.files...)...)
		got, stderr, code := levlab(t, "merge", dir)
		if code != exitOK || got != want || want == "" {
			t.Errorf("%s: the array's 3 shards, merged: exit %d, %d bytes where one process writes %d: %s", job.name, code, len(got), len(want), stderr)
		}
	}
}
