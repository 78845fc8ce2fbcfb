package paging

import (
	"errors"
	"hash/maphash"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
)

// accumulator keeps records in API order, each once; its guard sees each
// before it is de-duplicated.
type accumulator[T any, PT interface {
	*T
	Record
}] struct {
	out        []T
	seen       map[string]struct{}
	duplicates int
	guard      Guard[T]
	budget     Budget[T]
	weighed    tally
	endpoint   string
}

func newAccumulator[T any, PT interface {
	*T
	Record
}](rd *Read[T]) *accumulator[T, PT] {
	return &accumulator[T, PT]{seen: map[string]struct{}{}, guard: rd.NewGuard(), budget: rd.Budget, endpoint: rd.Endpoint}
}

// keep appends the records of page not seen before (at their first
// position; records without an id always) and returns how many it kept,
// or the budget's error at the first record past it.
func (a *accumulator[T, PT]) keep(page int, records []pagejson.Record[T], keepRaw bool) (int, error) {
	fresh := 0
	for i := range records {
		d := &records[i]
		if keepRaw {
			PT(&d.Rec).SetRaw(d.Raw) // before the guard: it looks at the raw JSON too
		}
		a.guard.See(&d.Rec, d.Raw)
		if key := PT(&d.Rec).Key(); key != "" {
			if _, dup := a.seen[key]; dup {
				a.duplicates++
				continue
			}
			a.seen[key] = struct{}{}
		}
		a.out = append(a.out, d.Rec)
		fresh++
		if over := a.budget.add(&a.weighed, &a.out[len(a.out)-1]); over != "" {
			return fresh, a.budget.exceeded(a.endpoint, page, a.weighed, over)
		}
	}
	return fresh, nil
}

// passError is a pass's error: the guard's when the pass ended well or at
// the budget (another organization says more than a size).
func (a *accumulator[T, PT]) passError(err error) error {
	if err == nil || errors.As(err, new(*failure.BudgetError)) {
		if g := a.guard.Err(); g != nil {
			return g
		}
	}
	return err
}

// hashSeed is per process: hashes only compare pages of one run.
var hashSeed = maphash.MakeSeed()

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
