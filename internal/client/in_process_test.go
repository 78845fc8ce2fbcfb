package client

import (
	"net/http"
	"net/http/httptest"
)

// inProcessURL is the base URL of an API served by inProcess: a loopback
// address, as the client requires of plain http, that nothing listens on.
const inProcessURL = "http://127.0.0.1:9"

// inProcess is a network that hands each request straight to a handler in
// this process, with no socket. Under testing/synctest that makes time a
// knob: the bubble's clock moves only when every goroutine of the read and
// of the handler waits on a timer (a socket's read would never count as
// waiting), so a test of time limits and Retry-After pauses sees exact
// times, in no time, however loaded the machine is. The handler's answer is
// whole before the client reads it; a request whose context ended while it
// was served fails as it would on a real network, but only once the
// handler returns: a handler here must end on its request's context, as the
// sandbox's waits do.
type inProcess struct{ h http.Handler }

func (n inProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	n.h.ServeHTTP(rec, req)
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	resp := rec.Result()
	resp.Request = req // as http.Transport sets it: the retry hooks read it
	return resp, nil
}
