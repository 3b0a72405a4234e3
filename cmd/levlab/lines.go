package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// lineWriter writes whole lines: it gathers them and writes in blocks that
// end at a line's end, so that an interrupted write never leaves half a
// line behind. A write that stops part-way (a full disk, a file-size
// limit) into a regular file is cut back to the last whole line it wrote;
// into a pipe, a write stops short only when the reader has gone.
type lineWriter struct {
	w   io.Writer
	buf []byte
}

// endLine ends the line in buf, and writes the lines gathered once they
// are many.
func (l *lineWriter) endLine() error {
	l.buf = append(l.buf, '\n')
	if len(l.buf) >= 64<<10 {
		return l.flush()
	}
	return nil
}

func (l *lineWriter) flush() error {
	if len(l.buf) == 0 {
		return nil
	}
	n, err := l.w.Write(l.buf)
	if err != nil && n > 0 && n < len(l.buf) {
		if torn := n - (bytes.LastIndexByte(l.buf[:n], '\n') + 1); torn > 0 {
			if cerr := cutBack(l.w, int64(torn)); cerr != nil {
				err = fmt.Errorf("%w; and the last line, written in part, could not be removed: %v", err, cerr)
			} else {
				err = fmt.Errorf("%w; the output was cut back to its last whole line", err)
			}
		}
	}
	l.buf = l.buf[:0]
	return err
}

// cutBack removes the last n bytes written to w, where w is (or wraps) a
// regular file: those of a line written in part. The file's offset goes
// back with its end, so that the next write to it (this process's, or a
// shell's sharing the file, as in { levlab matrix …; echo; } > out) lands
// right after the last whole line rather than past a gap of zero bytes.
func cutBack(w io.Writer, n int64) error {
	for {
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return err
	}
	end, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	if err := f.Truncate(end - n); err != nil {
		return err
	}
	_, err = f.Seek(end-n, io.SeekStart)
	return err
}

// lineSink writes whole lines through a lineWriter: what is written to it
// goes out once the lineWriter's buffer is full, at a line's end.
type lineSink struct{ l *lineWriter }

func (s lineSink) Write(p []byte) (int, error) {
	s.l.buf = append(s.l.buf, p...)
	if len(s.l.buf) >= 64<<10 {
		if end := bytes.LastIndexByte(s.l.buf, '\n'); end >= 0 {
			rest := append([]byte(nil), s.l.buf[end+1:]...)
			s.l.buf = s.l.buf[:end+1]
			err := s.l.flush()
			s.l.buf = append(s.l.buf, rest...)
			if err != nil {
				return 0, err
			}
		}
	}
	return len(p), nil
}
