package sandbox

import (
	"math"
	"strconv"
	"time"
)

// tokenBucket is the Faults.RateLimit limiter: it holds up to burst tokens,
// gains rate tokens a second, and each request served takes one.
type tokenBucket struct {
	rate   float64 // tokens a second; 0: no limit
	burst  float64
	tokens float64
	at     time.Time // when tokens was last brought up to date
}

func newTokenBucket(rate float64, burst int, now time.Time) tokenBucket {
	if rate <= 0 {
		return tokenBucket{}
	}
	b := float64(burst)
	if burst <= 0 {
		b = max(math.Ceil(rate), 1)
	}
	return tokenBucket{rate: rate, burst: b, tokens: b, at: now}
}

// take takes a token, or says how many whole seconds until one is there.
func (b *tokenBucket) take(now time.Time) (retryAfter string, ok bool) {
	if b.rate <= 0 {
		return "", true
	}
	b.tokens = min(b.burst, b.tokens+now.Sub(b.at).Seconds()*b.rate)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return "", true
	}
	wait := math.Ceil((1 - b.tokens) / b.rate)
	return strconv.Itoa(max(int(wait), 1)), false
}
