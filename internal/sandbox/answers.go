package sandbox

// Every kind of answer the sandbox writes, in one place.

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"time"
)

// statusNoResponse is recorded when no response was written: the connection
// was reset, or the client went away during Latency or SlowBody.
const statusNoResponse = 0

type errorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// writeError answers with a small JSON error. The spec shows no error
// format; this shape is the sandbox's choice and never includes request
// data (so a token can never be echoed).
func writeError(w http.ResponseWriter, status int, code, msg string) int {
	b, _ := json.Marshal(errorBody{Error: code, Message: msg})
	return writeJSON(w, status, b)
}

// writeJSON answers status with a JSON body.
func writeJSON(w http.ResponseWriter, status int, body []byte) int {
	writeJSONHeader(w, status, len(body))
	_, _ = w.Write(body)
	return status
}

func writeJSONHeader(w http.ResponseWriter, status, length int) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(length))
	w.WriteHeader(status)
}

// writePage answers 200 with a page's body, sent slowly (writeSlow) when
// slow is above 0.
func writePage(ctx context.Context, w http.ResponseWriter, body []byte, slow time.Duration) int {
	if slow <= 0 {
		return writeJSON(w, http.StatusOK, body)
	}
	writeJSONHeader(w, http.StatusOK, len(body))
	writeSlow(ctx, w, body, slow)
	return http.StatusOK
}

// writeHTML answers status with an HTML page, as a proxy in front of the
// service does.
func writeHTML(w http.ResponseWriter, status int) int {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(htmlBody)))
	w.WriteHeader(status)
	_, _ = w.Write([]byte(htmlBody))
	return status
}

// writeCut sends the headers of the whole body and half of it, then drops
// the connection: the client sees the body end early.
func writeCut(w http.ResponseWriter, body []byte) int {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body[:len(body)/2])
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
	resetConn(w)
	return statusNoResponse
}

// writeSlow writes body in about ten flushed chunks spread over d, stopping
// as soon as the request is cancelled.
func writeSlow(ctx context.Context, w http.ResponseWriter, body []byte, d time.Duration) {
	const parts = 10
	step := (len(body) + parts - 1) / parts
	step = max(step, 1)
	fl, _ := w.(http.Flusher)
	for i := 0; i < len(body); i += step {
		if i > 0 && !sleep(ctx, d/parts) {
			return
		}
		if _, err := w.Write(body[i:min(i+step, len(body))]); err != nil {
			return
		}
		if fl != nil {
			fl.Flush()
		}
	}
}

// resetConn drops the connection without a response. SO_LINGER 0 makes the
// close send RST instead of FIN, so the client sees "connection reset by
// peer", the way a crashing proxy looks. Where hijacking is impossible
// (HTTP/2), aborting the handler resets the stream instead.
func resetConn(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// sleep waits d or until ctx ends; it reports whether the full wait happened.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// writeOAuthError answers in RFC 6749 §5.2's shape, which OAuth clients
// parse into an error code; it never includes request data.
func writeOAuthError(w http.ResponseWriter, status int, code, desc string) int {
	b, _ := json.Marshal(map[string]string{"error": code, "error_description": desc})
	return writeOAuthJSON(w, status, b)
}

// writeOAuthJSON answers an OAuth endpoint with JSON no cache may keep
// (RFC 6749 §5.1).
func writeOAuthJSON(w http.ResponseWriter, status int, body []byte) int {
	w.Header().Set("Cache-Control", "no-store")
	return writeJSON(w, status, body)
}

// writeRedirect answers 302 to location, uncached: it carries a code.
func writeRedirect(w http.ResponseWriter, location string) int {
	w.Header().Set("Location", location)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusFound)
	return http.StatusFound
}

// htmlBody is what a misconfigured proxy or maintenance page returns.
const htmlBody = `<!DOCTYPE html>
<html><head><title>Service temporarily unavailable</title></head>
<body><h1>We'll be right back</h1><p>The membership service is under maintenance.</p></body></html>
`
