package sandbox

import (
	"math/rand/v2"
	"time"
)

var _ = registerRecords(EndpointGroups, recordMaker{
	demo: 12,
	generate: func(d *dataset, n int) [][]byte {
		return buildChunked(d.gen, kindGroup, n, func(r *rand.Rand, i int) any {
			gr := d.gen.group(r, uint32(i))
			return &gr
		})
	},
	insert: func(d *dataset, r *rand.Rand, seq uint32, n int) [][]byte {
		return encodeEach(n, func(i uint32) any {
			gr := d.gen.group(r, seq+i)
			return &gr
		})
	},
})

type groupRec struct {
	ID             string     `json:"_id"`
	OrganizationID string     `json:"organization_id"`
	Name           string     `json:"name"`
	Description    *string    `json:"description"`
	MemberCount    int        `json:"member_count"`
	Created        string     `json:"created"`
	Extra          extraField `json:"x_sandbox_extra"`
}

func (g *generator) group(r *rand.Rand, seq uint32) groupRec {
	created := epochMs + r.Int64N(spanMs)
	gr := groupRec{
		ID:             g.id(kindGroup, seq, created),
		OrganizationID: g.orgID,
		Name:           groupName(seq),
		MemberCount:    r.IntN(300),
		Created:        apiTimestamp(time.UnixMilli(created)),
		Extra:          sandboxExtra,
	}
	if chance(r, 80) {
		gr.Description = ptr(pick(r, groupDescriptions))
	}
	return gr
}
