package client

import "sync"

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

// recycleBody hands b back for later pages. The caller must hold no
// reference into it.
func recycleBody(b []byte) {
	if b == nil || cap(b) > maxPooledBody {
		return
	}
	bodyPool.Put(&b)
}
