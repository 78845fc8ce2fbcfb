package transport

import "testing"

// TestHTTPDialReachesLoopbackOnly: with an http base URL, the dialer
// refuses an address that is not loopback, whatever the name resolved to.
func TestHTTPDialReachesLoopbackOnly(t *testing.T) {
	t.Parallel()
	for addr, ok := range map[string]bool{"127.0.0.1:80": true, "[::1]:80": true, "192.0.2.7:80": false, "[2001:db8::1]:443": false} {
		if err := refuseNonLoopback("tcp", addr, nil); (err == nil) != ok {
			t.Errorf("refuseNonLoopback(%s) = %v", addr, err)
		}
	}
}
