package sandbox

import "testing"

// StartForTest builds a server from opts, starts it, and closes it when the
// test ends (t.Cleanup), as every test of this project starts its fake API.
// It returns the server and the API's base URL: the server's address
// followed by opts.PathPrefix, which is what a client is configured with.
//
// Each test gets a server of its own: a server shared by two tests lets one
// pass on what the other asked for (its request counts, its faults).
func StartForTest(t testing.TB, opts Options) (*Server, string) {
	t.Helper()
	s := New(opts)
	base := s.Start()
	t.Cleanup(s.Close)
	return s, base + normalizePrefix(opts.PathPrefix)
}
