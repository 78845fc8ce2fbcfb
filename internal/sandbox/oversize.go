package sandbox

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Oversized answers are faults like the others, set in Faults (each
// documented on its field): what a server may send that no paging rule
// stops, and only a bound on what a read holds does.

// oversize applies the oversized-answer faults to a page: the records to
// serve and the list's length that a limit-style page counts totalPages by.
func (f *Faults) oversize(ep, page, size int, recs [][]byte, total int) ([][]byte, int) {
	switch {
	case f.EndlessPages:
		return idRecords("endless-"+strconv.Itoa(page)+"-", size), (page + 1) * size
	case f.HugePage > 0:
		if page > 1 {
			return nil, f.HugePage
		}
		return idRecords("huge-", f.HugePage), f.HugePage
	case ep == epMemberships && page == 1 && len(recs) > 0 && (f.BloatAnswers > 0 || f.BloatDepth > 0):
		out := append([][]byte{bloated(recs[0], f.BloatAnswers, f.BloatDepth)}, recs[1:]...)
		return out, total
	}
	return recs, total
}

// idRecords are n records of an id alone: prefix0, prefix1, ….
func idRecords(prefix string, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = []byte(`{"_id":"` + prefix + strconv.Itoa(i) + `"}`)
	}
	return out
}

// bloated is a membership record with answers empty custom answers and
// an address depth arrays deep.
func bloated(rec []byte, answers, depth int) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(rec, &m) != nil {
		return rec
	}
	if answers > 0 {
		m["custom_answers"] = json.RawMessage("[" + strings.TrimSuffix(strings.Repeat("{},", answers), ",") + "]")
	}
	if depth > 0 {
		var profile map[string]json.RawMessage
		if json.Unmarshal(m["profile"], &profile) != nil || profile == nil {
			profile = map[string]json.RawMessage{}
		}
		profile["address"] = json.RawMessage(strings.Repeat("[", depth) + strings.Repeat("]", depth))
		m["profile"], _ = json.Marshal(profile)
	}
	out, err := json.Marshal(m)
	if err != nil {
		return rec
	}
	return out
}
