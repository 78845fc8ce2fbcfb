package transport

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

// Page bodies are recycled: a read of 100,000 memberships receives about
// 100 MB of bodies, each garbage once its page is decoded, and that garbage
// set the provider's peak memory. A body goes back to the pool only once
// its page's records were kept (decoded strings are copies, and raw JSON is
// copied when kept), so nothing refers to it any more.

// maxPooledBody bounds what the pool keeps: a page of 1000 large records is
// about a megabyte.
const maxPooledBody = 8 << 20

var bodyPool sync.Pool // of *[]byte

// getBody returns a buffer of n bytes, recycled when one is at hand.
func getBody(n int) []byte {
	if p, ok := bodyPool.Get().(*[]byte); ok && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]byte, n)
}

// Recycle hands a body back for later pages. The caller must hold no
// reference into it.
func Recycle(b []byte) {
	if b == nil || cap(b) > maxPooledBody {
		return
	}
	bodyPool.Put(&b)
}

// readBody reads a response body of at most limit bytes. A declared
// Content-Length sizes the buffer once: growing it by doubling would
// allocate about three times a page for every page of a large read.
func readBody(resp *http.Response, limit int64) ([]byte, error) {
	n := resp.ContentLength
	if n < 0 || n > limit {
		return readCapped(resp.Body, limit)
	}
	buf := getBody(int(n))
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
