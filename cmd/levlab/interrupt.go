package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// interruptContext returns a context that ends on Ctrl-C (SIGINT) or
// SIGTERM, what Slurm, systemd and timeout send to stop a job: a command
// stops as it does for Ctrl-C, keeping what it finished and saying so,
// with exit status 1, rather than dying with no word. stop restores the
// default handling, so that a second signal ends the process at once.
func interruptContext() (ctx context.Context, stop context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// laterInterruptContext is interruptContext with the watch put off until
// watchInterrupts is called on ctx (or a context made from it): until
// then Ctrl-C and SIGTERM end the process at once, as they end any
// program. Watching costs a thread and a goroutine, more than a job of a
// few milliseconds that has nothing to keep takes to start, and such a
// job (a distance between two short files) is what a checker such as
// verify starts a thousand times; a job that waits on a pipe or computes
// for long watches first.
func laterInterruptContext() (ctx context.Context, stop context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	in := &interrupts{cancel: cancel}
	return context.WithValue(ctx, interruptsKey{}, in), func() {
		in.end()
		cancel()
	}
}

// watchInterrupts starts the watch of a laterInterruptContext's ctx; on
// any other context it does nothing.
func watchInterrupts(ctx context.Context) {
	if in, ok := ctx.Value(interruptsKey{}).(*interrupts); ok {
		in.watch()
	}
}

type interruptsKey struct{}

// interrupts is the watch of a laterInterruptContext.
type interrupts struct {
	cancel context.CancelFunc

	mu      sync.Mutex
	signals chan os.Signal // nil: not watched yet
	ended   bool
}

func (in *interrupts) watch() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.signals != nil || in.ended {
		return
	}
	in.signals = make(chan os.Signal, 1)
	signal.Notify(in.signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		if _, ok := <-in.signals; ok {
			in.cancel()
		}
	}()
}

func (in *interrupts) end() {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.ended = true
	if in.signals != nil {
		signal.Stop(in.signals)
		close(in.signals)
	}
}
