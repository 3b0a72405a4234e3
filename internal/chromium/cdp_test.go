package chromium

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// openTwoCharts opens testdata/two_charts.html for a test, which may
// close it itself; the context bounds the test's steps.
func openTwoCharts(t *testing.T) (context.Context, *Page) {
	t.Helper()
	needBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	p, err := Open(ctx, "testdata/two_charts.html", Viewport{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return ctx, p
}

// TestCloseLeavesNothing: Close ends the browser and every helper it
// started, and removes the profile; a second Close does nothing.
func TestCloseLeavesNothing(t *testing.T) {
	_, p := openTwoCharts(t)
	pid, dir := p.b.cmd.Process.Pid, p.b.dir
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("profile %s while open: %v", dir, err)
	}
	if open := groupMembers(t, pid); len(open) < 2 {
		t.Fatalf("process group %d while open: %v; want the browser and its helpers", pid, open)
	}
	p.Close()
	p.Close()
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("profile %s after Close: %v; want it gone", dir, err)
	}
	// The browser led a process group of its own: no member is left
	// running (a killed helper is a zombie until its new parent reaps it).
	var live []string
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		live = groupMembers(t, pid)
		if len(live) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(live) > 0 {
		t.Errorf("process group %d after Close: %s still running", pid, strings.Join(live, ", "))
	}
}

// groupMembers lists the processes of group pgid that are not zombies,
// as "pid (command) state".
func groupMembers(t *testing.T, pgid int) []string {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var live []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid pgrp …; comm may hold spaces and parens.
		s := string(stat)
		end := strings.LastIndexByte(s, ')')
		if end < 0 {
			continue
		}
		f := strings.Fields(s[end+1:])
		if len(f) < 3 || f[2] != strconv.Itoa(pgid) || f[0] == "Z" || f[0] == "X" {
			continue
		}
		live = append(live, s[:end+1]+" "+f[0])
	}
	return live
}

// TestStepDeadline: a step that outlives its context fails with the
// context's error, and the page goes on answering the next one.
func TestStepDeadline(t *testing.T) {
	ctx, p := openTwoCharts(t)
	short, stop := context.WithTimeout(ctx, 200*time.Millisecond)
	defer stop()
	err := p.Evaluate(short, "new Promise(() => {})", nil)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "Runtime.evaluate") {
		t.Errorf("a promise that never settles: %v; want the deadline, naming the command", err)
	}
	var n int
	if err := p.Evaluate(ctx, "6 * 7", &n); err != nil || n != 42 {
		t.Errorf("the next step: %d, %v; want 42", n, err)
	}
}

// TestBrowserDies: a step on a browser that has gone fails at once with
// a reason, rather than waiting for its deadline.
func TestBrowserDies(t *testing.T) {
	ctx, p := openTwoCharts(t)
	syscall.Kill(-p.b.cmd.Process.Pid, syscall.SIGKILL)
	<-p.b.gone
	start := time.Now()
	err := p.Evaluate(ctx, "1", nil)
	if err == nil || !strings.Contains(err.Error(), "closed its pipe") {
		t.Errorf("a step on a killed browser: %v; want the pipe's end", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the step took %v; want it to fail at once", d)
	}
}
