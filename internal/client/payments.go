package client

import (
	"context"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
)

// Payment is one payment record. Amounts are the integers the API returns
// (most likely the currency's smallest unit; the specification does not say).
type Payment struct {
	ID             *string    `json:"_id"`
	OrganizationID *string    `json:"organization_id"`
	MemberID       *string    `json:"member_id"`
	MembershipIDs  *[]*string `json:"membership_ids"`
	Channel        *string    `json:"channel"`
	Status         *int64     `json:"status"`
	Currency       *string    `json:"currency"`
	Subtotal       *int64     `json:"subtotal"`
	Total          *int64     `json:"total"`
	PaymentDate    *string    `json:"payment_date"`
	Created        *string    `json:"created"`
	Updated        *string    `json:"updated"`
	RawJSON        string     `json:"-"`
}

func (p *Payment) organizationValue() *string { return p.OrganizationID }

func (p *Payment) Key() string { return deref(p.ID) }

func (p *Payment) SetRaw(r []byte) { p.RawJSON = string(r) }

// Payments reads every payment, in API order.
func (c *Client) Payments(ctx context.Context, o ListOptions) ([]Payment, error) {
	r, err := readList[Payment](ctx, c, listRead[Payment]{endpoint: apispec.EndpointPayments, fields: o.Fields, opts: o})
	return r.records, err
}
