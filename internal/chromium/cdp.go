package chromium

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// browser is one Chromium process driven over the DevTools protocol on
// --remote-debugging-pipe: Chromium reads commands on its descriptor 3 and
// writes replies and events on its descriptor 4, each message a JSON object
// ended by a NUL byte. Commands for a page carry the session id of the
// page's attachment (flat mode); events for it carry the same id.
type browser struct {
	cmd    *exec.Cmd
	dir    string   // the profile, removed by close
	toB    *os.File // commands, to the browser
	fromB  *os.File // replies and events, from the browser
	exited chan struct{}

	wmu sync.Mutex // one message written at a time

	mu      sync.Mutex
	next    int64
	pending map[int64]chan reply
	events  []event   // queued for the event loop
	wake    chan bool // has room for one: the event loop has work
	onEvent func(event)
	readErr error         // why the reader stopped
	gone    chan struct{} // closed when the reader stops

	closeOnce sync.Once
}

// reply is the answer to one command.
type reply struct {
	result json.RawMessage
	err    error
}

// event is a message the browser sent unasked.
type event struct {
	method, session string
	params          json.RawMessage
}

// wire is every message on the pipe, either way.
type wire struct {
	ID        int64           `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    any             `json:"params,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    string `json:"data"`
	} `json:"error,omitempty"`
}

// incoming is wire as read: its params kept raw for whoever wants them.
type incoming struct {
	wire
	Params json.RawMessage `json:"params,omitempty"`
}

// launch starts Chromium at exe with args, an empty profile in a temporary
// directory of its own and about:blank as its one page; Chromium's output
// goes to out. onEvent sees every event, one at a time, on a goroutine of
// its own (so it may call the browser). The browser lives until close.
func launch(exe string, args []string, out io.Writer, onEvent func(event)) (*browser, error) {
	dir, err := os.MkdirTemp("", "levlab-chromium-")
	if err != nil {
		return nil, err
	}
	// Chromium reads its fd 3 and writes its fd 4.
	childR, toB, err := os.Pipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	fromB, childW, err := os.Pipe()
	if err != nil {
		childR.Close()
		toB.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	args = append(append([]string(nil), args...), "--user-data-dir="+dir, "--remote-debugging-pipe", "about:blank")
	cmd := exec.Command(exe, args...)
	cmd.Stdout, cmd.Stderr = out, out
	// Its output is copied until every helper has closed it too: once the
	// browser has exited, for at most this long.
	cmd.WaitDelay = 2 * time.Second
	cmd.ExtraFiles = []*os.File{childR, childW}
	// A group of its own, so that its helpers can be killed with it; and
	// killed should levlab die first.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	err = cmd.Start()
	childR.Close()
	childW.Close()
	if err != nil {
		toB.Close()
		fromB.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	b := &browser{
		cmd: cmd, dir: dir, toB: toB, fromB: fromB,
		exited:  make(chan struct{}),
		pending: map[int64]chan reply{},
		wake:    make(chan bool, 1),
		onEvent: onEvent,
		gone:    make(chan struct{}),
	}
	go func() {
		cmd.Wait()
		close(b.exited)
	}()
	go b.read()
	go b.dispatch()
	return b, nil
}

// read files each message from the browser: a reply with its command, an
// event in the queue. It ends when the pipe does.
func (b *browser) read() {
	r := bufio.NewReaderSize(b.fromB, 1<<16)
	var err error
	for {
		var msg []byte
		msg, err = r.ReadBytes(0)
		if err != nil {
			break
		}
		var in incoming
		if err = json.Unmarshal(msg[:len(msg)-1], &in); err != nil {
			err = fmt.Errorf("reading the browser: %w", err)
			break
		}
		b.mu.Lock()
		if in.ID != 0 {
			if ch, ok := b.pending[in.ID]; ok {
				delete(b.pending, in.ID)
				rep := reply{result: in.Result}
				if e := in.Error; e != nil {
					rep.err = fmt.Errorf("%s (%d)", e.Message, e.Code)
					if e.Data != "" {
						rep.err = fmt.Errorf("%s: %s (%d)", e.Message, e.Data, e.Code)
					}
				}
				ch <- rep
			}
		} else if in.Method != "" {
			b.events = append(b.events, event{method: in.Method, session: in.SessionID, params: in.Params})
			select {
			case b.wake <- true:
			default:
			}
		}
		b.mu.Unlock()
	}
	if errors.Is(err, io.EOF) {
		err = errors.New("the browser closed its pipe")
	}
	b.mu.Lock()
	b.readErr = err
	for id, ch := range b.pending {
		ch <- reply{err: err}
		delete(b.pending, id)
	}
	b.mu.Unlock()
	close(b.gone)
}

// dispatch hands queued events to onEvent in the order they came.
func (b *browser) dispatch() {
	for {
		select {
		case <-b.wake:
		case <-b.gone:
			return
		}
		b.mu.Lock()
		evs := b.events
		b.events = nil
		b.mu.Unlock()
		for _, ev := range evs {
			if b.onEvent != nil {
				b.onEvent(ev)
			}
		}
	}
}

// call sends method with params to session ("" for the browser itself),
// waits for the answer until ctx ends, and decodes its result into res
// when res is not nil.
func (b *browser) call(ctx context.Context, session, method string, params, res any) error {
	ch := make(chan reply, 1)
	b.mu.Lock()
	if b.readErr != nil {
		err := b.readErr
		b.mu.Unlock()
		return fmt.Errorf("%s: %w", method, err)
	}
	b.next++
	id := b.next
	b.pending[id] = ch
	b.mu.Unlock()
	if params == nil {
		params = struct{}{}
	}
	msg, err := json.Marshal(wire{ID: id, Method: method, Params: params, SessionID: session})
	if err != nil {
		b.forget(id)
		return fmt.Errorf("%s: %w", method, err)
	}
	b.wmu.Lock()
	_, err = b.toB.Write(append(msg, 0))
	b.wmu.Unlock()
	if err != nil {
		b.forget(id)
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case rep := <-ch:
		if rep.err != nil {
			return fmt.Errorf("%s: %w", method, rep.err)
		}
		if res == nil {
			return nil
		}
		if err := json.Unmarshal(rep.result, res); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		b.forget(id)
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

func (b *browser) forget(id int64) {
	b.mu.Lock()
	delete(b.pending, id)
	b.mu.Unlock()
}

// attach attaches to the browser's first page (the about:blank it started
// with) and returns the session id its commands carry.
func (b *browser) attach(ctx context.Context) (string, error) {
	var targets struct {
		TargetInfos []struct {
			TargetID string `json:"targetId"`
			Type     string `json:"type"`
		} `json:"targetInfos"`
	}
	// The first page may come a moment after the browser answers.
	for {
		if err := b.call(ctx, "", "Target.getTargets", nil, &targets); err != nil {
			return "", err
		}
		for _, t := range targets.TargetInfos {
			if t.Type != "page" {
				continue
			}
			var att struct {
				SessionID string `json:"sessionId"`
			}
			err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": t.TargetID, "flatten": true}, &att)
			return att.SessionID, err
		}
		select {
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			return "", fmt.Errorf("waiting for the first page: %w", ctx.Err())
		}
	}
}

// close asks the browser to quit and waits up to 5 s for it to exit,
// then kills its process group (the helpers that outlive it, and the
// browser itself if it has not quit) and removes its profile. Calling it
// again does nothing.
func (b *browser) close() {
	b.closeOnce.Do(func() {
		// The browser may exit before it answers, and its helpers may
		// hold the pipe open: its exit ends the wait too.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		go func() {
			select {
			case <-b.exited:
				cancel()
			case <-ctx.Done():
			}
		}()
		b.call(ctx, "", "Browser.close", nil, nil)
		b.toB.Close()
		select {
		case <-b.exited:
		case <-ctx.Done():
		}
		cancel()
		// The group holds the helpers, which may outlive the main process.
		// Killed, none runs again, so none writes to the profile.
		syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
		<-b.exited
		b.fromB.Close()
		<-b.gone
		os.RemoveAll(b.dir)
	})
}
