package sandbox

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"time"
)

// Record shapes are in each endpoint's file (memberships.go, payments.go,
// groups.go, org_metrics.go). encoding/json writes struct fields in
// declaration order, so the same values always give the same bytes.

// extraField is the unknown field every record carries: clients must ignore
// fields they do not know (API.md#records-and-fields).
type extraField struct {
	Note string `json:"note"`
	Rev  int    `json:"rev"`
}

var sandboxExtra = extraField{Note: "unknown field", Rev: 1}

// Kinds of identifier; the kind byte sits inside the id so ids of different
// kinds never collide. A new endpoint's file declares its own kind after
// the last of these, which is also its generation's random stream.
const (
	kindMembership byte = iota + 1
	kindPayment
	kindGroup
	kindAccount
	kindOrg
	kindType
	kindQuestion
)

// Random streams: each (kind, chunk) pair has its own PCG stream, so the data
// does not depend on how many goroutines build it.
const (
	streamInsert = 1 << 62
	streamFixed  = 1 << 61
)

var (
	epochMs = time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	spanMs  = int64(3 * 365 * 24 * time.Hour / time.Millisecond)
	dayMs   = int64(24 * time.Hour / time.Millisecond)
)

// generator holds what every record of one data set shares.
type generator struct {
	seed        int64
	machine     [3]byte
	orgID       string
	typeIDs     []string
	questionIDs []string
	// firstStatuses fixes the statuses of the first 12 memberships so that
	// every known code and one unknown code appear in any set of 12 or more.
	firstStatuses [12]int
}

func newGenerator(seed int64) *generator {
	g := &generator{seed: seed}
	r := g.rng(streamFixed)
	m := r.Uint32()
	g.machine = [3]byte{byte(m >> 16), byte(m >> 8), byte(m)}
	g.orgID = g.id(kindOrg, 0, epochMs-400*dayMs)
	for i := range membershipTypes {
		g.typeIDs = append(g.typeIDs, g.id(kindType, uint32(i), epochMs-300*dayMs))
	}
	for i := range questions {
		g.questionIDs = append(g.questionIDs, g.id(kindQuestion, uint32(i), epochMs-200*dayMs))
	}
	g.firstStatuses = [12]int{100, 100, 100, 100, 100, 100, 100, 50, 75, 300, 350, 999}
	r.Shuffle(len(g.firstStatuses), func(i, j int) {
		g.firstStatuses[i], g.firstStatuses[j] = g.firstStatuses[j], g.firstStatuses[i]
	})
	return g
}

func (g *generator) rng(stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(g.seed), stream))
}

// id makes a 24-hex identifier shaped like a MongoDB ObjectId: creation
// seconds, a per-seed "machine" part, the kind, and a sequence number. The
// (kind, seq) pair makes it unique.
func (g *generator) id(kind byte, seq uint32, ms int64) string {
	var b [12]byte
	binary.BigEndian.PutUint32(b[0:4], uint32(ms/1000))
	copy(b[4:7], g.machine[:])
	b[7] = kind
	binary.BigEndian.PutUint32(b[8:12], seq)
	return hex.EncodeToString(b[:])
}

// ts formats like the API: ISO 8601 UTC with milliseconds.
// apiTimestamp is the API's timestamp: ISO 8601 UTC with milliseconds.
func apiTimestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func ptr[T any](v T) *T { return &v }

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// chance reports true with probability pct/100.
func chance(r *rand.Rand, pct int) bool { return r.IntN(100) < pct }

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

func randToken(r *rand.Rand, prefix string, n int) string {
	b := make([]byte, len(prefix), len(prefix)+n)
	copy(b, prefix)
	for range n {
		b = append(b, alnum[r.IntN(len(alnum))])
	}
	return string(b)
}

// encoder turns records into compact JSON without HTML escaping (a Node or
// Rails API does not escape "&" or "<"). Records of one chunk share one
// backing array, which keeps 100,000 records to a few allocations.
type encoder struct {
	buf   bytes.Buffer
	enc   *json.Encoder
	arena []byte
	offs  []int
}

func newEncoder() *encoder {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}

func (e *encoder) add(v any) {
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		panic("sandbox: encode record: " + err.Error()) // only fixed struct types: cannot happen
	}
	b := bytes.TrimSuffix(e.buf.Bytes(), []byte("\n"))
	e.arena = append(e.arena, b...)
	e.offs = append(e.offs, len(e.arena))
}

// records returns the encoded records, each capped so appending to one
// cannot overwrite the next.
func (e *encoder) records() [][]byte {
	out := make([][]byte, len(e.offs))
	start := 0
	for i, end := range e.offs {
		out[i] = e.arena[start:end:end]
		start = end
	}
	return out
}
