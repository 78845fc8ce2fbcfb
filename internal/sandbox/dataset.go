package sandbox

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// chunkSize is how many records share one random stream and one encoding
// arena. It is fixed, so the data does not depend on the number of CPUs.
const chunkSize = 2048

// dataset holds every record pre-encoded as JSON, in server order.
//
// Slices are never changed in place: an insert builds new slices and swaps
// them in under mu. A reader therefore takes the slice under the read lock
// and may use it after unlocking, and a page being written is never torn.
type dataset struct {
	gen *generator

	mu       sync.RWMutex
	lists    [numEndpoints][][]byte // memberships, payments, groups, org_metrics
	statuses []int                  // status of each membership, parallel to lists[epMemberships]
	byStatus map[int][][]byte       // memberships per status, in server order
	nextSeq  [numEndpoints]uint32   // next id sequence number for inserted records
	batches  int                    // inserts so far; each gets its own random stream

	memberIDs []string // ids of the generated memberships, which payments reference
}

func newDataset(seed int64, counts [numEndpoints]int) *dataset {
	d := &dataset{gen: newGenerator(seed)}
	// In the order of apispec.Endpoints: payments reference the memberships.
	for ep, name := range endpointNames {
		m, ok := recordMakers[name]
		if !ok {
			panic("sandbox: no registerRecords for endpoint " + name)
		}
		d.lists[ep] = m.generate(d, counts[ep])
		d.nextSeq[ep] = uint32(counts[ep])
	}
	d.indexStatuses()
	return d
}

func chunks(n int) int { return (n + chunkSize - 1) / chunkSize }

// buildChunked generates and encodes n records in parallel chunks.
func buildChunked(g *generator, kind byte, n int, make1 func(r *rand.Rand, i int) any) [][]byte {
	parts := make([][][]byte, chunks(n))
	parallel(len(parts), func(c int) {
		r := g.rng(uint64(kind)<<48 | uint64(c))
		e := newEncoder()
		for i := c * chunkSize; i < min((c+1)*chunkSize, n); i++ {
			e.add(make1(r, i))
		}
		parts[c] = e.records()
	})
	out := make([][]byte, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// parallel runs fn(0..n-1) on up to GOMAXPROCS goroutines.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
}

// indexStatuses rebuilds byStatus from lists and statuses. Callers hold mu
// for writing (or own d exclusively).
func (d *dataset) indexStatuses() {
	idx := make(map[int][][]byte)
	for i, rec := range d.lists[epMemberships] {
		st := d.statuses[i]
		idx[st] = append(idx[st], rec)
	}
	d.byStatus = idx
}

// records returns the current records of an endpoint, filtered by membership
// status when status is non-nil (the filter is applied before paging, as
// the spec requires). The result must not be modified.
func (d *dataset) records(ep int, status *int) [][]byte {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if ep == epMemberships && status != nil {
		return d.byStatus[*status]
	}
	return d.lists[ep]
}

// insertFront adds n new records at the front of an endpoint's list, as if
// they had been created while a client was paging. An endpoint without an
// insert (org metrics, which are monthly periods) takes none.
func (d *dataset) insertFront(ep, n int) {
	insert := recordMakers[endpointNames[ep]].insert
	if n <= 0 || insert == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.batches++
	r := d.gen.rng(streamInsert | uint64(d.batches)<<8 | uint64(ep))
	seq := d.nextSeq[ep]
	d.nextSeq[ep] += uint32(n)
	d.lists[ep] = append(insert(d, r, seq, n), d.lists[ep]...)
	if ep == epMemberships {
		d.indexStatuses() // insert put the new statuses in front
	}
}

// removeFront deletes the first n records of an endpoint's list, as if
// they were deleted while a client was paging (new slices, as insertFront).
func (d *dataset) removeFront(ep, n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	n = min(n, len(d.lists[ep]))
	d.lists[ep] = slices.Clone(d.lists[ep][n:])
	if ep == epMemberships {
		d.statuses = slices.Clone(d.statuses[n:])
		d.indexStatuses()
	}
}

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
