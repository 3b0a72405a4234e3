package browser

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// message is one DevTools protocol message, in either direction: a command
// (ID, Method, Params), its response (ID, Result or Error) or an event
// (Method, Params).
type message struct {
	ID        int64           `json:"id,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// conn is a running Chromium and the pipe pair to its DevTools endpoint.
type conn struct {
	cmd    *exec.Cmd
	w      *os.File // our end of Chromium's fd 3: commands
	r      *os.File // our end of Chromium's fd 4: responses and events
	stderr *tailBuffer
	done   chan struct{} // closed when the reader stops (Chromium gone)

	wmu sync.Mutex // serialises writes to w

	mu      sync.Mutex // guards the fields below
	nextID  int64
	pending map[int64]chan message
	onEvent func(message) // called with mu held
}

// start runs exe with args, fds 3 and 4 being the DevTools pipe.
func start(exe string, args []string) (*conn, error) {
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("browser: pipe: %w", err)
	}
	evR, evW, err := os.Pipe()
	if err != nil {
		cmdR.Close()
		cmdW.Close()
		return nil, fmt.Errorf("browser: pipe: %w", err)
	}
	b := &conn{
		cmd:     exec.Command(exe, args...),
		w:       cmdW,
		r:       evR,
		stderr:  &tailBuffer{max: 4096},
		done:    make(chan struct{}),
		pending: map[int64]chan message{},
	}
	b.cmd.ExtraFiles = []*os.File{cmdR, evW} // fd 3, fd 4
	b.cmd.Stdout = io.Discard
	b.cmd.Stderr = b.stderr
	ownGroup(b.cmd)
	err = b.cmd.Start()
	// Chromium holds its own copies of these ends now; ours would keep the
	// pipes open after it exits.
	cmdR.Close()
	evW.Close()
	if err != nil {
		cmdW.Close()
		evR.Close()
		return nil, fmt.Errorf("browser: start %s: %w", exe, err)
	}
	go b.read()
	return b, nil
}

// read delivers responses to their callers and events to onEvent until the
// pipe closes.
func (b *conn) read() {
	defer close(b.done)
	br := bufio.NewReaderSize(b.r, 1<<16)
	for {
		raw, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var m message
		if json.Unmarshal(bytes.TrimSuffix(raw, []byte{0}), &m) != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch, ok := b.pending[m.ID]; ok {
				delete(b.pending, m.ID)
				ch <- m
			}
		} else if b.onEvent != nil {
			b.onEvent(m)
		}
		b.mu.Unlock()
	}
}

// send writes a command without waiting for its response, which read
// drops. The caller holds b.mu (it is an event handler).
func (b *conn) send(session, method string, params any) {
	id, _ := b.register()
	_ = b.write(id, session, method, params)
}

// register reserves the id of a command and the channel its response will
// come on. The caller holds b.mu.
func (b *conn) register() (int64, chan message) {
	b.nextID++
	ch := make(chan message, 1)
	b.pending[b.nextID] = ch
	return b.nextID, ch
}

// write sends command id to Chromium, ended by the NUL byte the pipe
// protocol expects.
func (b *conn) write(id int64, session, method string, params any) error {
	data, err := json.Marshal(struct {
		ID        int64  `json:"id"`
		SessionID string `json:"sessionId,omitempty"`
		Method    string `json:"method"`
		Params    any    `json:"params,omitempty"`
	}{id, session, method, params})
	if err != nil {
		return err
	}
	b.wmu.Lock()
	defer b.wmu.Unlock()
	_, err = b.w.Write(append(data, 0))
	return err
}

// call sends a command and waits for its response, decoding its result
// into v when v is not nil.
func (b *conn) call(ctx context.Context, session, method string, params any, v any) error {
	b.mu.Lock()
	id, ch := b.register()
	b.mu.Unlock()
	if err := b.write(id, session, method, params); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %s (%d)", method, m.Error.Message, m.Error.Code)
		}
		if v != nil {
			if err := json.Unmarshal(m.Result, v); err != nil {
				return fmt.Errorf("%s: %w", method, err)
			}
		}
		return nil
	case <-b.done:
		return fmt.Errorf("%s: chromium exited", method)
	case <-ctx.Done():
		b.mu.Lock()
		delete(b.pending, id)
		b.mu.Unlock()
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// close asks Chromium to quit, and kills it (and its helper processes)
// when it has not within a few seconds.
func (b *conn) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = b.call(ctx, "", "Browser.close", nil, nil)
	b.w.Close()
	exited := make(chan struct{})
	go func() {
		b.cmd.Wait()
		close(exited)
	}()
	select {
	case <-exited:
	case <-time.After(3 * time.Second):
		killGroup(b.cmd)
		<-exited
	}
	b.r.Close()
}

// stderrTail returns Chromium's last lines of stderr, for error messages.
func (b *conn) stderrTail() string {
	s := b.stderr.String()
	if s == "" {
		return ""
	}
	return "\nchromium stderr (tail):\n" + s
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
