package transport

import (
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"  ", 0, false},
		{"0", 0, true},
		{"7", 7 * time.Second, true},
		{" 2 ", 2 * time.Second, true},
		{"-1", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"86401", 86401 * time.Second, true},
		{"99999999999", time.Duration(maxRetryAfterSeconds) * time.Second, true},
		{"+5", 5 * time.Second, true},
		{"Wed, 21 Oct 2015 07:28:00 GMT", 0, true}, // before now
		{"Thu, 26 Nov 2026 12:01:30 GMT", 90 * time.Second, true},
		{"Friday, 27-Nov-26 12:00:00 GMT", 24 * time.Hour, true}, // RFC 850, as HTTP allows
		{"Fri Nov 27 12:00:00 2026", 24 * time.Hour, true},       // asctime
		{"2026-11-27T12:00:00Z", 0, false},                       // not an HTTP date
	}
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	for _, c := range cases {
		got, ok := ParseRetryAfter(c.in, now)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestExponentialJitterBounds(t *testing.T) {
	t.Parallel()
	minW, maxW := 10*time.Millisecond, 200*time.Millisecond
	for attempt := range 12 {
		d := minW << min(attempt, 10)
		d = min(d, maxW)
		for range 50 {
			w := exponentialJitter(minW, maxW, attempt)
			if w < d/2 || w > d {
				t.Fatalf("attempt %d: wait %v outside [%v, %v]", attempt, w, d/2, d)
			}
		}
	}
}
