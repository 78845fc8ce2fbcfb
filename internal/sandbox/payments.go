package sandbox

import (
	"fmt"
	"math/rand/v2"
	"time"
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
	ID             string   `json:"_id"`
	OrganizationID string   `json:"organization_id"`
	MemberID       string   `json:"member_id"`
	MembershipIDs  []string `json:"membership_ids"`
	Channel        string   `json:"channel"`
	Status         int      `json:"status"`
	Currency       string   `json:"currency"`
	Subtotal       int      `json:"subtotal"`
	Total          int      `json:"total"`
	PaymentDate    string   `json:"payment_date"`
	Created        string   `json:"created"`
	Updated        string   `json:"updated"`
	// The fields the service's public reference documents beyond the API
	// reference's table (API.md#records-and-fields).
	Description          *string          `json:"description"`
	DiscountAmount       int              `json:"discount_amount"`
	DiscountLabel        *string          `json:"discount_label"`
	ExternalID           *string          `json:"external_id"`
	CustomerID           *string          `json:"customer_id"`
	SubscriptionID       *string          `json:"subscription_id"`
	InvoicePDF           *string          `json:"invoice_pdf"`
	StripeInvoiceID      *string          `json:"stripe_invoice_id"`
	ApplicationFeeAmount int              `json:"application_fee_amount"`
	TotalTaxAmounts      []taxAmountRec   `json:"total_tax_amounts"` // its shape is not documented: Stripe's
	Lines                []paymentLineRec `json:"lines"`
	Extra                extraField       `json:"x_sandbox_extra"`
}

type taxAmountRec struct {
	Amount    int    `json:"amount"`
	Inclusive bool   `json:"inclusive"`
	TaxRate   string `json:"tax_rate"`
}

type paymentLineRec struct {
	ID          string `json:"_id"`
	Description string `json:"description"`
	Amount      int    `json:"amount"`
	Quantity    int    `json:"quantity"`
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
		PaymentDate:    apiTimestamp(time.UnixMilli(created - r.Int64N(2*dayMs))),
		Created:        apiTimestamp(time.UnixMilli(created)),
		Updated:        apiTimestamp(time.UnixMilli(created + r.Int64N(30*dayMs))),
		Extra:          sandboxExtra,
	}
	g.paymentDetails(r, seq, &p, tax)
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

// paymentDetails fills the fields of the public reference (API.md#records-and-fields): one line a
// payment (two for some, the second a donation), the tax as Stripe words
// it, a discount now and then, and the Stripe ids of a card payment.
func (g *generator) paymentDetails(r *rand.Rand, seq uint32, p *paymentRec, tax int) {
	p.Description = ptr("Membership dues")
	p.Lines = []paymentLineRec{{ID: fmt.Sprintf("li_%06d_1", seq), Description: "Membership dues", Amount: p.Subtotal, Quantity: 1}}
	if chance(r, 15) {
		p.Lines = append(p.Lines, paymentLineRec{ID: fmt.Sprintf("li_%06d_2", seq), Description: "Donation", Amount: 500, Quantity: 1 + r.IntN(3)})
	}
	p.TotalTaxAmounts = []taxAmountRec{}
	if tax > 0 {
		p.TotalTaxAmounts = append(p.TotalTaxAmounts, taxAmountRec{Amount: p.Total - p.Subtotal, TaxRate: fmt.Sprintf("txr_%d", tax)})
	}
	if chance(r, 10) {
		p.DiscountAmount, p.DiscountLabel = p.Subtotal/10, ptr("Early renewal")
	}
	if chance(r, 30) {
		p.ExternalID = ptr(fmt.Sprintf("INV-%06d", seq))
	}
	if p.Channel == "stripe" {
		p.CustomerID = ptr(fmt.Sprintf("cus_%08x", seq))
		p.StripeInvoiceID = ptr(fmt.Sprintf("in_%08x", seq))
		p.InvoicePDF = ptr(fmt.Sprintf("https://invoices.example.com/%08x.pdf", seq))
		p.ApplicationFeeAmount = p.Total / 50
		if chance(r, 40) {
			p.SubscriptionID = ptr(fmt.Sprintf("sub_%08x", seq))
		}
	}
}
