package main

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// maxBody is the largest webhook body read: a membership is a few
// kilobytes; the service documents no maximum (API.md#the-request).
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
	// metricsElsewhere: /metrics is on -metrics-listen, not here.
	metricsElsewhere bool
	wrongSecrets     wrongSecrets
	log              *slog.Logger
}

func (h *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/healthz":
		health(h.ledger)(w, r)
	case r.URL.Path == "/metrics" && !h.metricsElsewhere:
		h.metrics.handler.ServeHTTP(w, r)
	case h.isHookPath(r.URL.EscapedPath()):
		status, eventType := h.hook(w, r)
		h.metrics.countWebhook(status, eventType)
	case strings.HasPrefix(r.URL.Path, hookPrefix):
		h.metrics.wrongSecrets.Inc()
		h.wrongSecrets.note(r.RemoteAddr, time.Now(), h.log)
		http.NotFound(w, r)
	default:
		http.NotFound(w, r)
	}
}

// wrongSecretsLogEvery is how often requests with a wrong secret are
// logged: once a sender has the host, it may send thousands.
const wrongSecretsLogEvery = time.Minute

// wrongSecrets are the requests under /hooks/ that matched no secret: the
// sender, if it is Join It, has an old secret and its webhooks are lost.
// Logged at most once a wrongSecretsLogEvery, counting those since.
type wrongSecrets struct {
	mu     sync.Mutex
	count  int
	logged time.Time
}

func (s *wrongSecrets) note(remoteAddr string, now time.Time, log *slog.Logger) {
	s.mu.Lock()
	s.count++
	if now.Sub(s.logged) < wrongSecretsLogEvery {
		s.mu.Unlock()
		return
	}
	count := s.count
	s.count, s.logged = 0, now
	s.mu.Unlock()
	sender, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		sender = "(unknown)"
	}
	log.Warn("requests under "+hookPrefix+" with a wrong secret, answered 404: if Join It sends them, its webhook URL holds an old secret", "count", count, "sender", sender)
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
// _id, never a personal field. It returns the status answered and the
// event type read ("" when none was), for the metrics.
func (h *receiver) hook(w http.ResponseWriter, r *http.Request) (status int, eventType string) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return h.refuse(w, http.StatusMethodNotAllowed, "only POST is accepted"), eventType
	}
	// w itself, not a wrapper: MaxBytesReader tells it to close the
	// connection after a 413.
	body := &gatedBody{ctx: r.Context(), r: http.MaxBytesReader(w, r.Body, maxBody), slots: h.largeBodies}
	defer body.release()
	ev, err := readEvent(body)
	body.release() // the place is another body's as soon as this one is read
	var tooLarge *http.MaxBytesError
	var syntax errBody
	switch {
	case errors.As(err, &tooLarge):
		return h.refuse(w, http.StatusRequestEntityTooLarge, "the body is over 1 MiB"), eventType
	case errors.As(err, &syntax):
		return h.refuse(w, http.StatusBadRequest, string(syntax)), eventType
	case err != nil:
		return h.refuse(w, http.StatusBadRequest, "the body could not be read"), eventType
	}
	eventType = ev.eventType
	if h.organizationID != "" && ev.organizationID != h.organizationID {
		return h.refuse(w, http.StatusForbidden, "organization_id is not -organization-id"), eventType
	}
	if ev.eventType != "" && !h.events[ev.eventType] {
		h.log.Info("webhook ignored: its event type is not in -events", "event", eventForLog(ev.eventType), "id", idForLog(ev.id))
		return answer(w, http.StatusAccepted, "ignored"), eventType
	}
	if err := h.ledger.record(time.Now()); err != nil {
		h.log.Error("webhook not recorded: the owed run could not be written to -state-dir", "event", eventForLog(ev.eventType), "id", idForLog(ev.id), "problem", err.Error())
		return answer(w, http.StatusServiceUnavailable, "not recorded"), eventType
	}
	h.log.Info("webhook accepted: a run is owed", "event", eventForLog(ev.eventType), "id", idForLog(ev.id))
	return answer(w, http.StatusAccepted, "accepted"), eventType
}

// refuse answers a request that owes no run, and logs why, not what it held.
func (h *receiver) refuse(w http.ResponseWriter, status int, why string) int {
	h.log.Warn("webhook refused", "status", status, "why", why)
	return answer(w, status, why)
}
