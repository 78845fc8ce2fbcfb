package main

import (
	"encoding/json"
	"net/http"
	"time"
)

// healthAnswer is GET /healthz's body: the relay's state, no secret and no
// record of any member.
type healthAnswer struct {
	RunOwed     bool       `json:"run_owed"`
	OwedSince   *time.Time `json:"owed_since"`
	Starting    bool       `json:"starting"`
	LastStarted *time.Time `json:"last_started"`
	// FailingFor counts from the end of the first failed start, after
	// that start's own retries of its request (dispatch.go: about 15 s).
	FailingFor *string `json:"failing_for"`
	// NextStart is, after failed starts, the time before which no relay
	// on -state-dir starts again (owed.json's retry_at: the backoff, or a
	// wait the backend asked for, an hour at most); null when no start
	// has failed, or that time has passed.
	NextStart *time.Time `json:"next_start"`
	// RecordError says why the last webhook could not be recorded in
	// -state-dir (answered 503); null once one is.
	RecordError *string `json:"record_error"`
}

// health answers GET /healthz from the ledger.
func health(l *ledger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			answer(w, http.StatusMethodNotAllowed, "only GET is accepted")
			return
		}
		writeHealth(w, l.snapshot())
	}
}

func writeHealth(w http.ResponseWriter, st ledgerState) {
	a := healthAnswer{RunOwed: !st.owedSince.IsZero(), OwedSince: timeOrNil(st.owedSince), Starting: st.starting, LastStarted: timeOrNil(st.lastStarted)}
	if st.recordErr != "" {
		a.RecordError = &st.recordErr
	}
	if st.owed() && st.retryAt.After(time.Now()) {
		a.NextStart = timeOrNil(st.retryAt)
	}
	if !st.failing.IsZero() {
		d := time.Since(st.failing).Round(time.Second).String()
		a.FailingFor = &d
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(a)
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}
