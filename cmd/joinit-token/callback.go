package main

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"html"
	"net/http"
	"sync"
)

// callback serves the redirect URI. The first request that looks like an
// authorization response (it has state, code or error) decides the run;
// anything else, such as a favicon request, is answered and ignored.
type callback struct {
	path   string
	state  string
	finish func(ctx context.Context, code string) error // exchange and store

	once    sync.Once
	arrived chan struct{} // closed when the deciding request arrives
	result  chan error    // the run's outcome, sent once
}

func (cb *callback) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	want := cb.path
	if want == "" {
		want = "/"
	}
	q := r.URL.Query()
	if r.URL.Path != want || (!q.Has("state") && !q.Has("code") && !q.Has("error")) {
		http.NotFound(w, r)
		return
	}
	taken := false
	cb.once.Do(func() { taken = true; close(cb.arrived) })
	if !taken {
		page(w, http.StatusConflict, "Already handled", "This run of joinit-token has already received its authorization response. Look at its terminal.")
		return
	}
	err := cb.decide(r)
	if err != nil {
		page(w, http.StatusBadRequest, "Failed", err.Error()+"\n\nSee the terminal of joinit-token.")
	} else {
		page(w, http.StatusOK, "Done", "joinit-token has the access token. You can close this window.")
	}
	cb.result <- err
}

// decide checks the response and, when it is a code for this run, lets
// finish exchange it. State is checked first, also on errors: a response
// that is not for this run must not be acted on, nor even reported as a
// denial.
func (cb *callback) decide(r *http.Request) error {
	q := r.URL.Query()
	if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(cb.state)) != 1 {
		return &failure{exitStateMismatch, errors.New("state mismatch: this authorization response was not for this run of joinit-token (an old browser tab, or someone else's link); nothing was exchanged")}
	}
	if e := q.Get("error"); e != "" {
		msg := "the authorization was denied: " + printable(e)
		if d := q.Get("error_description"); d != "" {
			msg += " (" + printable(d) + ")"
		}
		return &failure{exitDenied, errors.New(msg)}
	}
	code := q.Get("code")
	if code == "" {
		return errors.New("the authorization response has neither code nor error")
	}
	return cb.finish(r.Context(), code)
}

// page writes a small HTML page for the browser; text is escaped.
func page(w http.ResponseWriter, status int, title, text string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html>\n<title>joinit-token: %s</title>\n<h1>%s</h1>\n<pre>%s</pre>\n",
		html.EscapeString(title), html.EscapeString(title), html.EscapeString(text))
}
