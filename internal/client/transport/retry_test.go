package transport

import (
	"net/http"
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
		{"Wed, 21 Oct 2015 07:28:00 GMT", 0, true}, // in the past
	}
	for _, c := range cases {
		got, ok := parseRetryAfter(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	future := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	if d, ok := parseRetryAfter(future); !ok || d < 85*time.Second || d > 91*time.Second {
		t.Errorf("parseRetryAfter(future date) = %v, %v", d, ok)
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
