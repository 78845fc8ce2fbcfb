package sandbox

import (
	"math/rand/v2"
)

var _ = registerRecords(EndpointPayments, recordMaker{
	demo: 120,
	generate: func(d *dataset, n int) [][]byte {
		return buildChunked(d.gen, kindPayment, n, func(r *rand.Rand, i int) any {
			p := d.gen.payment(r, uint32(i), d.memberIDs)
			return &p
		})
	},
	insert: func(d *dataset, r *rand.Rand, seq uint32, n int) [][]byte {
		return encodeEach(n, func(i uint32) any {
			p := d.gen.payment(r, seq+i, d.memberIDs)
			return &p
		})
	},
})

type paymentRec struct {
	ID             string     `json:"_id"`
	OrganizationID string     `json:"organization_id"`
	MemberID       string     `json:"member_id"`
	MembershipIDs  []string   `json:"membership_ids"`
	Channel        string     `json:"channel"`
	Status         int        `json:"status"`
	Currency       string     `json:"currency"`
	Subtotal       int        `json:"subtotal"`
	Total          int        `json:"total"`
	PaymentDate    string     `json:"payment_date"`
	Created        string     `json:"created"`
	Updated        string     `json:"updated"`
	Extra          extraField `json:"x_sandbox_extra"`
}

func (g *generator) payment(r *rand.Rand, seq uint32, memberIDs []string) paymentRec {
	created := epochMs + r.Int64N(spanMs)
	sub := pick(r, membershipTypes).price
	tax := pick(r, []int{0, 0, 0, 5, 8, 20})
	p := paymentRec{
		ID:             g.id(kindPayment, seq, created),
		OrganizationID: g.orgID,
		MembershipIDs:  []string{},
		Channel:        pick(r, paymentChannels),
		Currency:       pick(r, currencies),
		Subtotal:       sub,
		Total:          sub + sub*tax/100,
		PaymentDate:    ts(created - r.Int64N(2*dayMs)),
		Created:        ts(created),
		Updated:        ts(created + r.Int64N(30*dayMs)),
		Extra:          sandboxExtra,
	}
	switch n := r.IntN(100); {
	case n < 85:
		p.Status = 100
	case n < 92:
		p.Status = 300
	case n < 97:
		p.Status = 50
	default:
		p.Status = 400
	}
	if len(memberIDs) > 0 {
		j := r.IntN(len(memberIDs))
		p.MemberID = g.id(kindAccount, uint32(j), epochMs)
		p.MembershipIDs = append(p.MembershipIDs, memberIDs[j])
		if chance(r, 10) {
			p.MembershipIDs = append(p.MembershipIDs, memberIDs[r.IntN(len(memberIDs))])
		}
	} else {
		p.MemberID = g.id(kindAccount, r.Uint32(), epochMs)
	}
	return p
}
