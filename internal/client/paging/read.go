// Package paging holds the paging rules (DESIGN.md, "Paging rules"). It
// reads pages through the function it is given (Read.Fetch) and never
// sees a socket: the client gives it the transport and decoding, the
// tests a scripted API.
//
// Its files, bottom up (each uses only those above it):
//
//   - answer.go, budget.go: what a page said and the answers a run
//     believed; what one read may hold;
//   - read.go: one read, what the rules need of the client;
//   - accumulator.go, confirm.go: the records kept; asking again until two
//     answers agree, and an end's other question;
//   - count_reader.go, count_end.go, schedule.go, count_rules.go, count.go:
//     a count-style read's state, how its end is believed, the ordered
//     pool, its rules, and ReadCount that runs them;
//   - limit.go: ReadLimit, the limit-style read.
package paging

import (
	"context"

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
