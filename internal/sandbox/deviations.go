package sandbox

import (
	"bytes"
	"slices"
)

// Deviations are the ways real servers part from the specification that a
// client must survive: faults like the others, set in Faults (each
// documented on its field).

// servedSize is the page size the server actually uses for a request.
func (f *Faults) servedSize(ep, asked int) int {
	size := asked
	if slices.Contains(f.IgnoreCount, endpointNames[ep]) {
		size = pagingOf(ep).DefaultSize
	}
	if f.PageSizeCap > 0 {
		size = min(size, f.PageSizeCap)
	}
	return size
}

// equalOrgMetric is the record EqualOrgMetrics serves in place of each one.
var equalOrgMetric = []byte(`{"organization_id":null,"metric_period_key":null,"active_memberships":null}`)

// deviateRecords applies the record-level deviations to one page.
func (f *Faults) deviateRecords(ep, page int, recs [][]byte) [][]byte {
	if ep == epOrgMetrics && f.EqualOrgMetrics {
		out := make([][]byte, len(recs))
		for i := range out {
			out[i] = equalOrgMetric
		}
		return out
	}
	if !slices.Contains(f.BrokenTextPages, page) || ep == epOrgMetrics {
		return recs
	}
	out := slices.Clone(recs)
	for i, prefix := range [][]byte{[]byte(`\ud83d`), {0xff}} {
		if i < len(out) {
			out[i] = prefixTextField(out[i], brokenTextField[ep], prefix)
		}
	}
	return out
}

// brokenTextField is the string field BrokenTextPages spoils, by endpoint.
var brokenTextField = [numEndpoints]string{epMemberships: "display_name", epPayments: "channel", epGroups: "name"}

// prefixTextField returns rec with prefix inserted at the start of the
// string value of the top-level-looking field name; a null or absent
// field leaves rec as it is. Records are the sandbox's own compact JSON, so
// the first `"name":"` is the field.
func prefixTextField(rec []byte, name string, prefix []byte) []byte {
	key := []byte(`"` + name + `":"`)
	i := bytes.Index(rec, key)
	if i < 0 {
		return rec
	}
	at := i + len(key)
	out := make([]byte, 0, len(rec)+len(prefix))
	out = append(out, rec[:at]...)
	out = append(out, prefix...)
	return append(out, rec[at:]...)
}

// BrokenTextRepaired is what a client that repairs text the way
// encoding/json does makes of either BrokenTextPages prefix: U+FFFD.
const BrokenTextRepaired = "\uFFFD"
