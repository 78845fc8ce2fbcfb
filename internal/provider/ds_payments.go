package provider

import (
	"context"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

type paymentsState struct {
	common
	payments []client.Payment
}

// paymentFields are the attributes `fields` chooses from.
var paymentFields = recordFields{what: "payment", attrs: paymentAttrs(), json: map[string]string{"id": "_id", "raw_json": ""}}

var paymentsDef = registerDataSource(dataSource[paymentsState]{
	name:        "payments",
	description: "Reads the organization's payments, in API order. Amounts are the integers the API returns, in the currency's smallest unit (cents: 10000 usd is $100.00), as the service's payments page says.",
	read:        readPayments,
	readLess:    "set fields to the attributes you use, or leave include_raw_json unset.",
	rawJSON:     true,
	fields:      &paymentFields,
	attrs: []attr{
		objectList("payments", "The payments, in API order, each once. Null when `fields` is set.",
			func(s *paymentsState) ([]client.Payment, bool) { return s.payments, s.fields.chosen == nil },
			paymentAttrs()...),
		recordsAttr("payment", func(s *paymentsState) ([]attr, []client.Payment) { return s.fields.chosen, s.payments }),
	},
})

func paymentAttrs() []attr {
	type p = client.Payment
	return []attr{
		str("id", "Payment identifier (the API's `_id`).", func(x *p) *string { return x.ID }),
		str("organization_id", "Owning organization.", func(x *p) *string { return x.OrganizationID }),
		str("member_id", "Identifier of the associated account.", func(x *p) *string { return x.MemberID }),
		strList("membership_ids", "Memberships the payment is for.", func(x *p) ([]*string, bool) {
			if x.MembershipIDs == nil {
				return nil, false
			}
			return *x.MembershipIDs, true
		}),
		str("channel", "Payment channel, as the API names it.", func(x *p) *string { return x.Channel }),
		num("status", "Payment status code (values are not documented).", func(x *p) *int64 { return x.Status }),
		str("currency", "Currency code.", func(x *p) *string { return x.Currency }),
		num("subtotal", "Subtotal, in the currency's smallest unit (cents: 10000 usd is $100.00), as the API returns it.", func(x *p) *int64 { return x.Subtotal }),
		num("total", "Total, in the currency's smallest unit, as the API returns it.", func(x *p) *int64 { return x.Total }),
		str("payment_date", "When the payment was made."+timestampNote, func(x *p) *string { return x.PaymentDate }),
		str("created", "Creation time."+timestampNote, func(x *p) *string { return x.Created }),
		str("updated", "Last update time."+timestampNote, func(x *p) *string { return x.Updated }),
		str("description", "What the payment is for.", func(x *p) *string { return x.Description }),
		num("discount_amount", "Discount, in the currency's smallest unit.", func(x *p) *int64 { return x.DiscountAmount }),
		str("discount_label", "The discount's label.", func(x *p) *string { return x.DiscountLabel }),
		str("external_id", "Identifier in another system; may be null.", func(x *p) *string { return x.ExternalID }),
		str("customer_id", "Payment processor's customer identifier; may be null.", func(x *p) *string { return x.CustomerID }),
		str("subscription_id", "Payment processor's subscription identifier; may be null.", func(x *p) *string { return x.SubscriptionID }),
		str("invoice_pdf", "Address of the invoice as a PDF; may be null.", func(x *p) *string { return x.InvoicePDF }),
		str("stripe_invoice_id", "Stripe's invoice identifier; may be null.", func(x *p) *string { return x.StripeInvoiceID }),
		num("application_fee_amount", "Application fee, in the currency's smallest unit.", func(x *p) *int64 { return x.ApplicationFeeAmount }),
		str("total_tax_amounts", "Taxes of the payment. Their shape is not documented: given as JSON text (use `jsondecode`).", func(x *p) *string { return (*string)(x.TotalTaxAmounts) }),
		objectList("lines", "The payment's lines.", func(x *p) ([]client.PaymentLine, bool) {
			if x.Lines == nil {
				return nil, false
			}
			return *x.Lines, true
		}, paymentLineAttrs()...),
		str("raw_json", "The record as the API sent it (JSON), when `include_raw_json` is true; otherwise null.", func(x *p) *string { return nonEmpty(&x.RawJSON) }),
	}
}

func paymentLineAttrs() []attr {
	type l = client.PaymentLine
	return []attr{
		str("id", "Line identifier (the API's `_id`).", func(x *l) *string { return x.ID }),
		str("description", "What the line is for.", func(x *l) *string { return x.Description }),
		num("amount", "Amount, in the currency's smallest unit.", func(x *l) *int64 { return x.Amount }),
		num("quantity", "Quantity.", func(x *l) *int64 { return x.Quantity }),
	}
}

func readPayments(ctx context.Context, c *client.Client, s *paymentsState, o client.ListOptions) (err error) {
	s.payments, err = c.Payments(ctx, o)
	return err
}
