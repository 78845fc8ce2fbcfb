package main

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// maxBody is the largest webhook body read: a membership is a few
// kilobytes; api.md gives no maximum.
const maxBody = 1 << 20

// hookPrefix is the path before the secret.
const hookPrefix = "/hooks/"

// receiver answers the relay's two paths: POST /hooks/<secret> and GET
// /healthz. Every other path, a wrong secret included, gets the same 404.
type receiver struct {
	secretSum      [sha256.Size]byte
	organizationID string
	events         map[string]bool
	ledger         *ledger
	largeBodies    largeBodySlots // bounds.go
	metrics        *metrics
	log            *slog.Logger
}

func (h *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/healthz":
		h.health(w, r)
	case r.URL.Path == "/metrics":
		h.metrics.handler().ServeHTTP(w, r)
	case h.isHookPath(r.URL.EscapedPath()):
		sw := &statusWriter{ResponseWriter: w}
		eventType := h.hook(sw, r)
		h.metrics.countWebhook(sw.status, eventType)
	default:
		http.NotFound(w, r)
	}
}

// isHookPath compares the path's secret in constant time: hashing both
// sides first also hides the secret's length.
func (h *receiver) isHookPath(p string) bool {
	s, ok := strings.CutPrefix(p, hookPrefix)
	sum := sha256.Sum256([]byte(s))
	return subtle.ConstantTimeCompare(sum[:], h.secretSum[:]) == 1 && ok
}

// hook takes one webhook. It trusts nothing in the body beyond deciding
// whether a run is owed; what it logs is the event type and the record's
// _id, never a personal field. It returns the event type read, for the
// metrics ("" when none was).
func (h *receiver) hook(w http.ResponseWriter, r *http.Request) (eventType string) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		h.refuse(w, http.StatusMethodNotAllowed, "only POST is accepted")
		return
	}
	body := &gatedBody{ctx: r.Context(), r: http.MaxBytesReader(w, r.Body, maxBody), slots: h.largeBodies}
	ev, err := readEvent(body)
	body.release()
	var tooLarge *http.MaxBytesError
	var syntax errBody
	switch {
	case errors.As(err, &tooLarge):
		h.refuse(w, http.StatusRequestEntityTooLarge, "the body is over 1 MiB")
		return
	case errors.As(err, &syntax):
		h.refuse(w, http.StatusBadRequest, string(syntax))
		return
	case err != nil:
		h.refuse(w, http.StatusBadRequest, "the body could not be read")
		return
	}
	eventType = ev.eventType
	if h.organizationID != "" && ev.organizationID != h.organizationID {
		h.refuse(w, http.StatusForbidden, "organization_id is not -organization-id")
		return
	}
	if ev.eventType != "" && !h.events[ev.eventType] {
		h.log.Info("webhook ignored: its event type is not in -events", "event", eventForLog(ev.eventType), "id", idForLog(ev.id))
		answer(w, http.StatusAccepted, "ignored")
		return
	}
	if err := h.ledger.record(time.Now()); err != nil {
		h.log.Error("webhook not recorded: the owed run could not be written to -state-dir", "event", eventForLog(ev.eventType), "id", idForLog(ev.id), "problem", err.Error())
		answer(w, http.StatusServiceUnavailable, "not recorded")
		return
	}
	h.log.Info("webhook accepted: a run is owed", "event", eventForLog(ev.eventType), "id", idForLog(ev.id))
	answer(w, http.StatusAccepted, "accepted")
	return eventType
}

// refuse answers a request that owes no run, and logs why, not what it held.
func (h *receiver) refuse(w http.ResponseWriter, status int, why string) {
	h.log.Warn("webhook refused", "status", status, "why", why)
	answer(w, status, why)
}

// answer writes a small JSON body: {"status": "..."}.
func answer(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"status": text})
}
