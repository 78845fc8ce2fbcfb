package sandbox

import (
	"fmt"
	"math/rand/v2"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
)

// The membership types: the four every data set's memberships hold (their
// ids are the memberships' membership_type), then hidden ones (status 200)
// no membership holds.
var _ = registerRecords(apispec.EndpointMembershipTypes, recordMaker{
	demo: 5,
	generate: func(d *dataset, n int) [][]byte {
		return buildChunked(d.gen, kindType, n, func(r *rand.Rand, i int) any {
			t := d.gen.membershipType(r, uint32(i))
			return &t
		})
	},
})

type membershipTypeRec struct {
	ID                   string     `json:"_id"`
	OrganizationID       string     `json:"organization_id"`
	MembershipName       string     `json:"membership_name"`
	Description          *string    `json:"description"`
	Status               int        `json:"status"`
	Duration             int        `json:"duration"`
	DurationIntervalType string     `json:"duration_interval_type"`
	DurationDisplay      string     `json:"duration_display"`
	RegistrationType     string     `json:"registration_type"`
	Price                priceRec   `json:"price"`
	Recurring            bool       `json:"recurring"`
	Extra                extraField `json:"x_sandbox_extra"`
}

type priceRec struct {
	Value    int    `json:"value"`
	Currency string `json:"currency"`
	Display  string `json:"display"`
	Type     string `json:"type"`
}

func (g *generator) membershipType(r *rand.Rand, seq uint32) membershipTypeRec {
	t := membershipTypeRec{
		OrganizationID: g.orgID, Status: 100, Duration: 1, DurationIntervalType: "year", DurationDisplay: "1 year",
		RegistrationType: "individual", Recurring: chance(r, 70), Extra: sandboxExtra,
	}
	if int(seq) < len(membershipTypes) {
		mt := membershipTypes[seq]
		t.ID, t.MembershipName = g.typeIDs[seq], mt.name
		t.Price = priceRec{Value: mt.price, Currency: "usd", Display: fmt.Sprintf("$%d.%02d", mt.price/100, mt.price%100), Type: "fixed"}
		if mt.name == "Family" || mt.name == "Corporate" {
			t.RegistrationType = "group"
		}
	} else {
		t.ID = g.id(kindType, seq, epochMs-300*dayMs)
		t.MembershipName, t.Status = fmt.Sprintf("Retired %d", seq), 200
		t.Price = priceRec{Value: 0, Currency: "usd", Display: "Pay what you want", Type: "donation"}
		t.DurationIntervalType, t.DurationDisplay, t.Duration = "month", "6 months", 6
	}
	if chance(r, 60) {
		t.Description = ptr("Join " + t.MembershipName)
	}
	return t
}
