package paging

import "github.com/joinit-community/terraform-provider-joinit/internal/client/failure"

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
