package paging

import (
	"errors"

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
