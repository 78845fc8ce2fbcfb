package transport

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

// Page bodies are recycled once their records are kept (copies): 100,000
// memberships are about 100 MB of bodies, which set the peak memory.

// maxPooledBody bounds what the pool keeps (a page is about a megabyte).
const maxPooledBody = 8 << 20

var bodyPool sync.Pool // of *[]byte

// Recycle hands a body back for later pages. The caller must hold no
// reference into it.
func Recycle(b []byte) {
	if b == nil || cap(b) > maxPooledBody {
		return
	}
	bodyPool.Put(&b)
}

// readBody reads a body of at most limit bytes, in one buffer of its
// Content-Length when declared.
func readBody(resp *http.Response, limit int64) ([]byte, error) {
	n := resp.ContentLength
	if n < 0 || n > limit {
		return readCapped(resp.Body, limit)
	}
	var buf []byte
	if p, ok := bodyPool.Get().(*[]byte); ok && cap(*p) >= int(n) {
		buf = (*p)[:n] // a recycled body
	} else {
		buf = make([]byte, n)
	}
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		Recycle(buf)
		return nil, err
	}
	return buf, nil
}

// readCapped reads all of r, failing once more than limit bytes arrive.
func readCapped(r io.Reader, limit int64) ([]byte, error) {
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, &bodyTooLargeError{limit: limit}
	}
	return buf.Bytes(), nil
}
