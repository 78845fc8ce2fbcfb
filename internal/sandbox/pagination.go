package sandbox

import (
	"errors"
	"math"
	"net/url"
	"strconv"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
)

// pagingOf is how the endpoint of index ep pages (apispec's table).
func pagingOf(ep int) apispec.Paging { return apispec.Endpoints[ep].Paging }

// pageQuery is a request's paging parameters after the spec's defaults.
type pageQuery struct {
	page   int  // >= 1
	size   int  // count or limit, within [1, max]
	status *int // memberships only
}

// parsePage: omitted, invalid or below 1 gives page 1, as the specification
// says. A
// number too large for int is still a valid, very late page.
func parsePage(v string) int {
	n, err := strconv.Atoi(v)
	if errors.Is(err, strconv.ErrRange) && n > 0 {
		return math.MaxInt
	}
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// parseSize reads count or limit: invalid or below 1 takes the default, above
// the maximum is capped silently (also when it overflows int).
func parseSize(v string, def, maxSize int) int {
	n, err := strconv.Atoi(v)
	if errors.Is(err, strconv.ErrRange) && n > 0 {
		return maxSize
	}
	if err != nil || n < 1 {
		return def
	}
	return min(n, maxSize)
}

// errBadStatus is the one parameter error: status is an integer filter, and
// silently ignoring a bad one would hand the client the unfiltered set.
var errBadStatus = errors.New("status must be an integer")

// parseQuery applies the parameters an endpoint takes; the others are
// ignored: the specification says count and limit are not interchangeable.
func parseQuery(ep int, q url.Values) (pageQuery, error) {
	pq := pageQuery{page: parsePage(q.Get("page"))}
	paging := pagingOf(ep)
	pq.size = parseSize(q.Get(paging.SizeParam), paging.DefaultSize, paging.MaxSize)
	if ep == epMemberships {
		if v := q.Get("status"); v != "" {
			st, err := strconv.Atoi(v)
			if err != nil {
				return pq, errBadStatus
			}
			pq.status = &st
		}
	}
	return pq, nil
}

// pageSlice returns the records of one page; past the end it is empty.
// It never multiplies page by size, so huge pages cannot overflow.
func pageSlice(recs [][]byte, page, size int) [][]byte {
	pages := (len(recs) + size - 1) / size
	if page > pages {
		return nil
	}
	lo := (page - 1) * size
	return recs[lo:min(lo+size, len(recs))]
}

// totalPages is ceil(n/size), 0 when there are no records (as the
// specification says of metadata responses).
func totalPages(n, size int) int { return (n + size - 1) / size }

// arrayLen is the encoded length of a JSON array of recs.
func arrayLen(recs [][]byte) int {
	n := 2 + max(len(recs)-1, 0)
	for _, r := range recs {
		n += len(r)
	}
	return n
}

// appendArray appends recs as a JSON array. Records are already encoded, so
// a page costs one copy and no marshalling.
func appendArray(dst []byte, recs [][]byte) []byte {
	dst = append(dst, '[')
	for i, r := range recs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, r...)
	}
	return append(dst, ']')
}

// pageBody builds the whole response body of one page: a bare array for the
// count endpoints, the metadata object for org_metrics. Its size is that of
// the page, never of the data set.
func pageBody(ep int, recs [][]byte, pq pageQuery, total int) []byte {
	if !pagingOf(ep).Metadata {
		return appendArray(make([]byte, 0, arrayLen(recs)), recs)
	}
	b := make([]byte, 0, arrayLen(recs)+64)
	b = append(b, `{"results":`...)
	b = appendArray(b, recs)
	b = append(b, `,"page":`...)
	b = strconv.AppendInt(b, int64(pq.page), 10)
	b = append(b, `,"limit":`...)
	b = strconv.AppendInt(b, int64(pq.size), 10)
	b = append(b, `,"totalPages":`...)
	b = strconv.AppendInt(b, int64(totalPages(total, pq.size)), 10)
	return append(b, '}')
}
