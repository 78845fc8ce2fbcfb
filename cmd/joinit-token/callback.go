package main

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"html"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// callback serves the redirect URI. The first request that carries this
// run's state decides the run. A request with a wrong or missing state is
// answered 400 and otherwise ignored: any local process, or any web page
// loading an image from 127.0.0.1, can send one, and must not be able to
// end the run. Anything else, such as a favicon request, gets 404.
type callback struct {
	path    string
	state   string
	secrets []redact.Secret                              // kept out of what the server's words are shown in
	finish  func(ctx context.Context, code string) error // exchange and store
	refused func()                                       // told of each request with a wrong state

	once       sync.Once
	arrived    chan struct{} // closed when the deciding request arrives
	result     chan error    // the run's outcome, sent once
	mismatches atomic.Int32  // requests refused for their state
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
	// State first, also on errors: a response that is not for this run must
	// not be acted on, nor even reported as a denial.
	if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(cb.state)) != 1 {
		cb.mismatches.Add(1)
		if cb.refused != nil {
			cb.refused()
		}
		page(w, http.StatusBadRequest, "Not for this run",
			"This authorization response does not carry the state of the running joinit-token (an old browser tab, or someone else's link). Nothing was exchanged; joinit-token is still waiting for its own.")
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

// decide acts on a response for this run: a denial is reported, a code is
// exchanged by finish.
func (cb *callback) decide(r *http.Request) error {
	q := r.URL.Query()
	if e := q.Get("error"); e != "" {
		msg := "the authorization was denied: " + serverWords(e, cb.secrets)
		if d := q.Get("error_description"); d != "" {
			msg += " (" + serverWords(d, cb.secrets) + ")"
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
