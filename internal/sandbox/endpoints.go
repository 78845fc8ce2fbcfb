package sandbox

import (
	"math/rand/v2"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
)

// An endpoint's index is its position in apispec.Endpoints, which is also
// the order the data set generates records in. The endpoints named here
// have behaviour of their own (paging, the status filter, deviations); a
// new list endpoint needs no name.
const (
	epMemberships = iota
	epPayments
	epGroups
	epOrgMetrics
)

const numEndpoints = len(apispec.Endpoints)

// endpointNames are the public names, by index.
var endpointNames = func() (names [numEndpoints]string) {
	for ep, e := range apispec.Endpoints {
		names[ep] = e.Name
	}
	return names
}()

// recordMaker is how the sandbox makes one endpoint's records. Each
// endpoint's file (memberships.go, payments.go, ...) registers its own, so
// that a new endpoint's records are one file.
type recordMaker struct {
	// generate builds the data set's n records, encoded, in server order.
	// The endpoints before this one in apispec.Endpoints are generated
	// already: payments reference the memberships.
	generate func(d *dataset, n int) [][]byte
	// insert makes n records created while a client pages, the first with
	// sequence number seq, all drawn from r. It runs under d.mu. nil when
	// the endpoint takes no inserts.
	insert func(d *dataset, r *rand.Rand, seq uint32, n int) [][]byte
	// demo is how many records the joinit-sandbox command serves unless
	// told otherwise, and about says more of them for its -h ("" for
	// nothing more).
	demo  int
	about string
}

// DemoRecords is how many records of the endpoint of that name the
// joinit-sandbox command serves by default, and a note on them for its -h.
func DemoRecords(endpoint string) (n int, about string) {
	m := recordMakers[endpoint]
	return m.demo, m.about
}

var recordMakers = map[string]recordMaker{}

func registerRecords(endpoint string, m recordMaker) bool { //nolint:unparam // the result lets a file register at package level: var _ = registerRecords(...)
	if _, dup := recordMakers[endpoint]; dup {
		panic("sandbox: two record makers for " + endpoint)
	}
	recordMakers[endpoint] = m
	return true
}

// encodeEach encodes make1(0..n-1) in order, from one random stream: an
// insert's records.
func encodeEach(n int, make1 func(i uint32) any) [][]byte {
	e := newEncoder()
	for i := range uint32(n) {
		e.add(make1(i))
	}
	return e.records()
}
