package apispec

import "fmt"

// Paging is how an endpoint pages, from the specification's pagination
// table: the parameter that sets the page size, its default and maximum,
// and the shape of the answer.
type Paging struct {
	// SizeParam is the query parameter of the page size: count or limit.
	// The specification says they are not interchangeable.
	SizeParam   string
	DefaultSize int // the size of a page when SizeParam is absent or invalid
	MaxSize     int // the largest size served; a larger one is capped
	// Metadata is true for the reporting endpoints, which answer an object
	// with results, page, limit and totalPages; the others answer a bare
	// JSON array and end on an empty page.
	Metadata bool
}

// The two pagings of the specification.
var (
	// CountPaging is the object-list endpoints': page and count, a JSON array.
	CountPaging = Paging{SizeParam: "count", DefaultSize: 50, MaxSize: 1000}
	// LimitPaging is the metadata (reporting) endpoints': page and limit,
	// results with totalPages.
	LimitPaging = Paging{SizeParam: "limit", DefaultSize: 25, MaxSize: 100, Metadata: true}
)

// CheckSize refuses a page size the endpoint does not serve: a client that
// asked for one would be answered with pages of another size.
func (p Paging) CheckSize(endpoint string, size int) error {
	if size < 1 || size > p.MaxSize {
		return fmt.Errorf("%s: page size %d is out of range 1..%d", endpoint, size, p.MaxSize)
	}
	return nil
}

// Describe says how the endpoint pages, for usage texts and docs:
// "page, count (default 50, max 1000)".
func (p Paging) Describe() string {
	return fmt.Sprintf("page, %s (default %d, max %d)", p.SizeParam, p.DefaultSize, p.MaxSize)
}
