package sandbox

import (
	"encoding/json"
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

// raw copies the list of record slices (not the bytes) as json.RawMessage.
func raw(recs [][]byte) []json.RawMessage {
	out := make([]json.RawMessage, len(recs))
	for i, r := range recs {
		out[i] = json.RawMessage(r)
	}
	return out
}

// MembershipsJSON returns the memberships in server order (after any
// inserts), filtered by status when status is non-nil, exactly as the server
// encodes them. The bytes are shared with the server: do not modify them.
func (s *Server) MembershipsJSON(status *int) []json.RawMessage {
	return raw(s.data.records(epMemberships, status))
}

// MembershipsArrayJSON is MembershipsJSON as one JSON array, as a client
// that read every page would hold it (benchmarks decode it whole).
func (s *Server) MembershipsArrayJSON(status *int) []byte {
	recs := s.data.records(epMemberships, status)
	return appendArray(make([]byte, 0, arrayLen(recs)), recs)
}

// PaymentsJSON returns the payments in server order (after any inserts).
// The bytes are shared with the server: do not modify them.
func (s *Server) PaymentsJSON() []json.RawMessage { return raw(s.data.records(epPayments, nil)) }

// GroupsJSON returns the groups in server order (after any inserts). The
// bytes are shared with the server: do not modify them.
func (s *Server) GroupsJSON() []json.RawMessage { return raw(s.data.records(epGroups, nil)) }

// OrgMetricsJSON returns the org metrics records in server order. The bytes
// are shared with the server: do not modify them.
func (s *Server) OrgMetricsJSON() []json.RawMessage { return raw(s.data.records(epOrgMetrics, nil)) }

// RecordsJSON returns the records of the endpoint of that name (an
// apispec endpoint name) in server order; nil for an unknown name. The
// bytes are shared with the server: do not modify them.
func (s *Server) RecordsJSON(endpoint string) []json.RawMessage {
	for ep, name := range endpointNames {
		if name == endpoint {
			return raw(s.data.records(ep, nil))
		}
	}
	return nil
}

// OrganizationID is the organization_id every generated record carries:
// what a client's organization guard must be set to for this sandbox.
func (s *Server) OrganizationID() string { return s.data.gen.orgID }
