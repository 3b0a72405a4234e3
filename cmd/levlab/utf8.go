package main

import (
	"fmt"
	"unicode/utf8"
)

// utf8BOM is the byte-order mark some editors put before UTF-8 text.
var utf8BOM = []byte("\xef\xbb\xbf")

// validUTF8 returns an error naming path and the first byte that is not
// UTF-8, if any: distance, align and matrix refuse a file under --runes
// with the same words.
func validUTF8(path string, data []byte) error {
	if at := firstBadByte(data); at >= 0 {
		return notUTF8(path, data, at, "")
	}
	return nil
}

// firstBadByte returns the offset of the first byte of data that starts no
// UTF-8 rune, or -1 when data is valid UTF-8.
func firstBadByte(data []byte) int {
	if utf8.Valid(data) {
		return -1
	}
	at := 0
	for at < len(data) {
		r, size := utf8.DecodeRune(data[at:])
		if r == utf8.RuneError && size <= 1 {
			return at
		}
		at += size
	}
	return -1
}

// notUTF8 is the error for the file at path whose byte at is the first
// that starts no rune; where, if not "", says which of its strings holds
// it.
func notUTF8(path string, data []byte, at int, where string) error {
	if where != "" {
		where = " (in " + where + ")"
	}
	return fmt.Errorf("%s is not valid UTF-8: byte %d (0x%02x, from 0)%s starts no rune; --runes compares text, and without it the bytes are compared", path, at, data[at], where)
}
