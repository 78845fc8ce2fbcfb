package main

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
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
	log            *slog.Logger
}

func (h *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/healthz":
		h.health(w, r)
	case h.isHookPath(r.URL.EscapedPath()):
		h.hook(w, r)
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
// _id, never a personal field.
func (h *receiver) hook(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		h.refuse(w, http.StatusMethodNotAllowed, "only POST is accepted")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		h.refuse(w, http.StatusRequestEntityTooLarge, "the body is over 1 MiB")
		return
	case err != nil:
		h.refuse(w, http.StatusBadRequest, "the body could not be read")
		return
	}
	ev, problem := readEvent(body)
	if problem != "" {
		h.refuse(w, http.StatusBadRequest, problem)
		return
	}
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
}

// refuse answers a request that owes no run, and logs why, not what it held.
func (h *receiver) refuse(w http.ResponseWriter, status int, why string) {
	h.log.Warn("webhook refused", "status", status, "why", why)
	answer(w, status, why)
}

// event is what the relay reads of a webhook: nothing it acts on but the
// event type and the organization.
type event struct {
	eventType      string // "" for a bare object (the public webhooks page's shape)
	organizationID string
	id             string
}

// readEvent reads a body that must be one JSON object. Its fields are the
// resource's plus webhook_event_type (api.md §4); a field of another type
// than a string reads as absent, and a non-string event type is refused.
func readEvent(body []byte) (event, string) {
	var fields map[string]json.RawMessage
	if !bytes.HasPrefix(bytes.TrimLeft(body, " \t\r\n"), []byte("{")) || json.Unmarshal(body, &fields) != nil {
		return event{}, "the body is not a JSON object"
	}
	ev := event{organizationID: stringField(fields, "organization_id"), id: stringField(fields, "_id")}
	// Any field can be null (api.md §2): a null event type is an absent one.
	if raw, ok := fields["webhook_event_type"]; ok && string(raw) != "null" {
		if json.Unmarshal(raw, &ev.eventType) != nil || ev.eventType == "" {
			return event{}, "webhook_event_type is not a string"
		}
	}
	return ev, ""
}

func stringField(fields map[string]json.RawMessage, name string) string {
	var s string
	if json.Unmarshal(fields[name], &s) != nil {
		return ""
	}
	return s
}

// answer writes a small JSON body: {"status": "..."}.
func answer(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"status": text})
}
