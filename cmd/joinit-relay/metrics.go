package main

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the relay's numbers for a monitoring system, served at GET
// /metrics in Prometheus' text format. No label value is text a sender
// chose: an event type is a trigger's name, "other" or "none".
type metrics struct {
	handler      http.Handler           // GET /metrics
	webhooks     *prometheus.CounterVec // by code and event
	starts       *prometheus.CounterVec // by outcome: started or failed
	wrongSecrets prometheus.Counter     // requests under /hooks/ that matched no secret
}

func newMetrics(l *ledger) *metrics {
	registry := prometheus.NewRegistry()
	m := &metrics{
		handler: promhttp.HandlerFor(registry, promhttp.HandlerOpts{}),
		webhooks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "joinit_relay_webhooks_total",
			Help: "Requests to the receiver URL, by the HTTP status answered and the webhook's event type (a trigger's name, other, or none).",
		}, []string{"code", "event"}),
		starts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "joinit_relay_run_starts_total",
			Help: "Starts of the sync run, by outcome: started, or failed (retried with backoff).",
		}, []string{"outcome"}),
		wrongSecrets: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "joinit_relay_wrong_secret_total",
			Help: "Requests under /hooks/ whose path matched no secret (answered 404): a sender with an old secret, or a guesser.",
		}),
	}
	registry.MustRegister(m.webhooks, m.starts, m.wrongSecrets,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "joinit_relay_run_owed_seconds",
			Help: "How long a run has been owed: since the first webhook no successful run covers, through starts in progress and failed ones; 0 when no run is owed.",
		}, func() float64 {
			if since := l.snapshot().owedSince; !since.IsZero() {
				return time.Since(since).Seconds()
			}
			return 0
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "joinit_relay_last_start_timestamp_seconds",
			Help: "When the last successful start of the sync run ended, in Unix seconds; 0 before the first.",
		}, func() float64 {
			if t := l.snapshot().lastStarted; !t.IsZero() {
				return float64(t.UnixNano()) / 1e9
			}
			return 0
		}),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	for _, outcome := range []string{"started", "failed"} {
		m.starts.WithLabelValues(outcome) // present at 0, so a rate can be taken from the start
	}
	return m
}

// countWebhook counts one answer on the receiver URL.
func (m *metrics) countWebhook(status int, eventType string) {
	event := eventType
	switch eventForLog(eventType) {
	case "(none)":
		event = "none"
	case "(other)":
		event = "other"
	}
	m.webhooks.WithLabelValues(strconv.Itoa(status), event).Inc()
}
