package client

import (
	"context"
	"reflect"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
)

// Payment is one payment record. Amounts are the integers the API returns,
// in the currency's smallest unit (the service's payments page says so:
// 10000 usd is $100.00).
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
	// The fields the service's public reference documents beyond the API
	// reference's table (API.md#records-and-fields).
	Description          *string        `json:"description"`
	DiscountAmount       *int64         `json:"discount_amount"`
	DiscountLabel        *string        `json:"discount_label"`
	ExternalID           *string        `json:"external_id"`
	CustomerID           *string        `json:"customer_id"`
	SubscriptionID       *string        `json:"subscription_id"`
	InvoicePDF           *string        `json:"invoice_pdf"`
	StripeInvoiceID      *string        `json:"stripe_invoice_id"`
	ApplicationFeeAmount *int64         `json:"application_fee_amount"`
	TotalTaxAmounts      *JSONText      `json:"total_tax_amounts"` // its shape is not documented
	Lines                *[]PaymentLine `json:"lines"`
	RawJSON              string         `json:"-"`
}

// PaymentLine is one line of a payment.
type PaymentLine struct {
	ID          *string `json:"_id"`
	Description *string `json:"description"`
	Amount      *int64  `json:"amount"`
	Quantity    *int64  `json:"quantity"`
}

func (p *Payment) organizationValue() *string { return p.OrganizationID }

func (p *Payment) Key() string { return deref(p.ID) }

func (p *Payment) SetRaw(r []byte) { p.RawJSON = string(r) }

// Payments reads every payment, in API order.
func (c *Client) Payments(ctx context.Context, o ListOptions) ([]Payment, error) {
	r, err := readList[Payment](ctx, c, listRead[Payment]{endpoint: apispec.EndpointPayments, fields: o.Fields, opts: o})
	return r.records, err
}

// paymentLineFields is the width of a nested payment line: one value a field.
var paymentLineFields = int64(len(pagejson.FieldIndex(reflect.TypeFor[PaymentLine]())))

func (p *Payment) weigh() (nested, text int64) {
	text = textOf(p.ID, p.OrganizationID, p.MemberID, p.Channel, p.Currency, p.PaymentDate, p.Created, p.Updated,
		p.Description, p.DiscountLabel, p.ExternalID, p.CustomerID, p.SubscriptionID, p.InvoicePDF, p.StripeInvoiceID,
		(*string)(p.TotalTaxAmounts)) + int64(len(p.RawJSON))
	if p.MembershipIDs != nil {
		nested = int64(len(*p.MembershipIDs))
		text += textOf(*p.MembershipIDs...)
	}
	if p.Lines != nil {
		for i := range *p.Lines {
			l := &(*p.Lines)[i]
			nested += 1 + paymentLineFields
			text += textOf(l.ID, l.Description)
		}
	}
	return nested, text
}
