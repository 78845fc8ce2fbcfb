// Package paging holds the paging rules (DESIGN.md, "Paging rules"). It
// reads pages through the function it is given (Read.Fetch) and never
// sees a socket: the client gives it the transport and decoding, the
// tests a scripted API.
//
// Its files, bottom up (each uses only those above it): read (one read, its
// budget, the run's believed answers), accumulator, confirm (asking again);
// count_reader, schedule (the ordered pool), count_rules, count (ReadCount,
// which believes the end); limit (ReadLimit).
package paging

import (
	"context"
	"hash/maphash"
	"sync"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
)

// Read is one read of one endpoint: what the rules need of the client.
// ReadCount and ReadLimit fill the nil functions with ones that do nothing.
type Read[T any] struct {
	Endpoint string // named in errors and logs
	Size     int    // the page size asked for (count or limit)
	// MaxSize and DefaultSize are the API's largest and default page
	// sizes (what a server that ignores the size asked serves).
	MaxSize, DefaultSize int
	MaxPages             int // ends runaway paging with an error
	MaxInFlight          int
	KeepRaw              bool // keep each record's JSON (Record.SetRaw)

	// Fetch asks for one page of size records, decoded; it runs
	// concurrently with other pages, and calls Arrived(ctx) once the body
	// is off the network, before decoding it.
	Fetch func(ctx context.Context, page, size int) (Page[T], error)
	// Question is the URL a page is asked at.
	Question func(page, size int) string
	// Recycle takes back a page's body once its records are kept (nil or
	// not); nil keeps none.
	Recycle func(body []byte)
	// NewGuard checks every record of one pass; nil checks nothing.
	NewGuard func() Guard[T]
	// Budget bounds what one pass holds; its zero value bounds nothing.
	Budget Budget[T]

	// Answers are the run's believed answers, shared by a client's reads.
	Answers *Answers
	Logger  Logger
}

// Page is one page's answer, decoded.
type Page[T any] struct {
	Records []pagejson.Record[T]
	// Body is the answer as sent, which its records' raw JSON points into.
	Body []byte
	// TotalPages and Results are a limit-style page's.
	TotalPages int
	Results    []byte
}

// Record is what the rules need of a record type.
type Record interface {
	Key() string // its id across pages; "": none, never a duplicate
	SetRaw(raw []byte)
}

// Guard checks the records of one pass as they are kept, duplicates
// included (See, with the record's bytes as sent); Err is the verdict.
type Guard[T any] interface {
	See(rec *T, raw []byte)
	Err() error
}

// Logger receives the rules' events; fields never hold server text.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
	Warn(ctx context.Context, msg string, fields map[string]any)
}

// Stats is what a read did, for its "read complete" log line.
type Stats struct {
	Pages int
	// ServerPageSize is what a count-style server serves per page, when
	// it serves fewer than asked; TotalPages a limit-style page 1's.
	ServerPageSize, TotalPages int
	Duplicates, Discarded      int
	Reread                     bool
}

// noGuard checks nothing.
type noGuard[T any] struct{}

func (noGuard[T]) See(*T, []byte) {}
func (noGuard[T]) Err() error     { return nil }

// withDefaults fills the functions left nil with ones that do nothing.
func (r *Read[T]) withDefaults() {
	if r.NewGuard == nil {
		r.NewGuard = func() Guard[T] { return noGuard[T]{} }
	}
	if r.Recycle == nil {
		r.Recycle = func([]byte) {}
	}
}

// Budget bounds what one read holds (DESIGN.md, "Bounds"): records are
// weighed as they are kept, and the first past a bound stops the read
// with a *failure.BudgetError. The zero Budget bounds nothing.
type Budget[T any] struct {
	// MaxValues and MaxBytes are the bounds; 0 is none.
	MaxValues, MaxBytes int64
	// MaxRecordValues bounds the values of one record; 0 is none.
	MaxRecordValues int64
	// Width is the values every record holds: one per field decoded,
	// null or not.
	Width int64
	// Weigh is what a record holds beyond them: nested values and the
	// bytes of its text; nil weighs nothing more.
	Weigh func(*T) (nested, text int64)
}

// tally is what the records kept in one pass hold.
type tally struct {
	records       int
	values, bytes int64
	record        int64 // the values of the record that passed MaxRecordValues
}

// add weighs one kept record and reports the bound it passes, or "".
func (b *Budget[T]) add(t *tally, rec *T) failure.Bound {
	t.records++
	t.values += b.Width
	if b.Weigh != nil {
		nested, text := b.Weigh(rec)
		t.values += nested
		t.bytes += text
		if b.MaxRecordValues > 0 && b.Width+nested > b.MaxRecordValues {
			t.record = b.Width + nested
			return failure.OverRecord
		}
	}
	switch {
	case b.MaxValues > 0 && t.values > b.MaxValues:
		return failure.OverValues
	case b.MaxBytes > 0 && t.values+t.bytes > b.MaxBytes:
		// A value takes a byte at least in Terraform's encoding.
		return failure.OverBytes
	}
	return ""
}

// exceeded is the error of a pass that passed a bound on page page.
func (b *Budget[T]) exceeded(endpoint string, page int, t tally, over failure.Bound) error {
	return &failure.BudgetError{Endpoint: endpoint, Pages: page, Records: t.records, Values: t.values, Bytes: t.bytes,
		MaxValues: b.MaxValues, MaxBytes: b.MaxBytes, Over: over, RecordValues: t.record, MaxRecordValues: b.MaxRecordValues}
}

// RecordsPerPage is the most records one page may hold, the whole budget
// of values' worth; the decoder stops past it. 0: no bound.
func (b *Budget[T]) RecordsPerPage() int {
	if b.MaxValues <= 0 {
		return 0
	}
	return int(b.MaxValues/max(b.Width, 1)) + 1
}

// PageTooLarge is the error of page page, whose decoding stopped past
// RecordsPerPage records.
func (b *Budget[T]) PageTooLarge(endpoint string, page int) error {
	n := b.RecordsPerPage() + 1
	return &failure.BudgetError{Endpoint: endpoint, Pages: page, Records: n, Values: int64(n) * b.Width,
		MaxValues: b.MaxValues, Over: failure.OverPage}
}

// hashSeed is per process: hashes only compare pages of one run.
var hashSeed = maphash.MakeSeed()

// answer is what one page said: its records' ids in order (a record whose
// fields changed is the same answer), or its bytes for records without id.
type answer struct {
	digest  uint64
	records int
}

// noRecords is the answer of an empty page, and of a page refused past
// the end of the list: both say there is nothing there. It is answerOf's
// digest of no ids.
var noRecords = answer{digest: maphash.String(hashSeed, "")}

// Answers are the answers last believed in one run, by question (a page's
// URL): two data sources reading one URL must not get two lists.
type Answers struct {
	mu      sync.Mutex
	answers map[string]answer
}

// NewAnswers are the answers of one client's run.
func NewAnswers() *Answers { return &Answers{answers: map[string]answer{}} }

// earlier is the answer believed before for question, if any.
func (b *Answers) earlier(question string) (answer, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	a, ok := b.answers[question]
	return a, ok
}

// record notes a believed answer: a digest per page asked.
func (b *Answers) record(question string, a answer) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.answers[question] = a
}
