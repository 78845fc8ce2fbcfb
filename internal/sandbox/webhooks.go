package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"
)

// WebhookOptions make the sandbox send webhooks as the service does
// (API.md#webhooks): for each event of a change, one POST of one flat JSON object (the
// record's fields plus webhook_object_type and webhook_event_type) with
// Content-Type: application/json and no other header of its own; any 2xx
// is a delivery. Membership events get one attempt; the check-in family
// (check_ins.all) up to three, with exponential backoff and jitter from
// about RetryWait. Every event is sent to URL, as if one automation per
// trigger pointed there. Unlike the service, the sandbox sends to loopback
// addresses: its receivers are local.
type WebhookOptions struct {
	URL       string        // the receiver; "" sends none
	RetryWait time.Duration // the first wait between attempts; 0 means a second, as the service
	Timeout   time.Duration // of each attempt; 0 means 10 s
}

// Delivery is how one webhook went.
type Delivery struct {
	Event    string `json:"event"`
	Attempts int    `json:"attempts"`
	Status   int    `json:"status"`          // of the last attempt; 0 when it got no response
	Error    string `json:"error,omitempty"` // why the last attempt got no response
}

// retriedEvents are the events of the trigger families the service tries
// up to three times (API.md#delivery).
var retriedEvents = map[string]bool{"check_ins.all": true, "check_ins.updated": true, "check_ins.checked_out": true, "registrations.created": true}

// objectTypes are each event's webhook_object_type.
var objectTypes = map[string]string{"check_ins.created": "memberships", "check_ins.all": "memberships"}

type webhookSender struct {
	opts   WebhookOptions
	client *http.Client
	logf   func(format string, args ...any)
}

func newWebhookSender(o WebhookOptions, logf func(string, ...any)) *webhookSender {
	if o.RetryWait <= 0 {
		o.RetryWait = time.Second
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	return &webhookSender{opts: o, logf: logf, client: &http.Client{
		Timeout: o.Timeout,
		// A redirect is not a 2xx: the service counts it failed.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// deliver sends one event of record; with no receiver it sends nothing.
func (h *webhookSender) deliver(event string, record map[string]json.RawMessage) Delivery {
	d := Delivery{Event: event}
	if h.opts.URL == "" {
		return d
	}
	body := payload(event, record)
	attempts := 1
	if retriedEvents[event] {
		attempts = 3
	}
	wait := h.opts.RetryWait
	for d.Attempts < attempts {
		if d.Attempts > 0 {
			time.Sleep(wait/2 + rand.N(wait)) //nolint:gosec // jitter, not a secret
			wait *= 2
		}
		d.Attempts++
		d.Status, d.Error = h.post(body)
		if d.Status >= 200 && d.Status < 300 {
			break
		}
	}
	if h.logf != nil {
		h.logf("webhook %s -> %d (%d attempts)", event, d.Status, d.Attempts)
	}
	return d
}

func (h *webhookSender) post(body []byte) (int, string) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, h.opts.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.client.Do(req)
	if err != nil {
		return 0, strings.ReplaceAll(err.Error(), h.opts.URL, "<receiver>") // the URL holds the receiver's secret
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, ""
}

// payload is the record's fields and the two webhook fields, flat.
func payload(event string, record map[string]json.RawMessage) []byte {
	m := make(map[string]json.RawMessage, len(record)+2)
	for k, v := range record {
		m[k] = v
	}
	object := objectTypes[event]
	if object == "" {
		object, _, _ = strings.Cut(event, ".")
	}
	m["webhook_object_type"], _ = json.Marshal(object)
	m["webhook_event_type"], _ = json.Marshal(event)
	b, _ := json.Marshal(m)
	return b
}
