package provider

import (
	"context"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
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
	attrs: []tfattr.Attr{
		tfattr.ObjectList("payments", "The payments, in API order, each once. Null when `fields` is set.",
			func(s *paymentsState) ([]client.Payment, bool) { return s.payments, s.fields.chosen == nil },
			paymentAttrs()...),
		recordsAttr("payment", func(s *paymentsState) ([]tfattr.Attr, []client.Payment) { return s.fields.chosen, s.payments }),
	},
})

func paymentAttrs() []tfattr.Attr {
	type p = client.Payment
	return []tfattr.Attr{
		tfattr.Str("id", "Payment identifier (the API's `_id`).", func(x *p) *string { return x.ID }),
		tfattr.Str("organization_id", "Owning organization.", func(x *p) *string { return x.OrganizationID }),
		tfattr.Str("member_id", "Identifier of the associated account.", func(x *p) *string { return x.MemberID }),
		tfattr.StrList("membership_ids", "Memberships the payment is for.", func(x *p) ([]*string, bool) {
			if x.MembershipIDs == nil {
				return nil, false
			}
			return *x.MembershipIDs, true
		}),
		tfattr.Str("channel", "Payment channel, as the API names it.", func(x *p) *string { return x.Channel }),
		tfattr.Num("status", "Payment status code (values are not documented).", func(x *p) *int64 { return x.Status }),
		tfattr.Str("currency", "Currency code.", func(x *p) *string { return x.Currency }),
		tfattr.Num("subtotal", "Subtotal, in the currency's smallest unit (cents: 10000 usd is $100.00), as the API returns it.", func(x *p) *int64 { return x.Subtotal }),
		tfattr.Num("total", "Total, in the currency's smallest unit, as the API returns it.", func(x *p) *int64 { return x.Total }),
		tfattr.Str("payment_date", "When the payment was made."+timestampNote, func(x *p) *string { return x.PaymentDate }),
		tfattr.Str("created", "Creation time."+timestampNote, func(x *p) *string { return x.Created }),
		tfattr.Str("updated", "Last update time."+timestampNote, func(x *p) *string { return x.Updated }),
		tfattr.Str("description", "What the payment is for.", func(x *p) *string { return x.Description }),
		tfattr.Num("discount_amount", "Discount, in the currency's smallest unit.", func(x *p) *int64 { return x.DiscountAmount }),
		tfattr.Str("discount_label", "The discount's label.", func(x *p) *string { return x.DiscountLabel }),
		tfattr.Str("external_id", "Identifier in another system; may be null.", func(x *p) *string { return x.ExternalID }),
		tfattr.Str("customer_id", "Payment processor's customer identifier; may be null.", func(x *p) *string { return x.CustomerID }),
		tfattr.Str("subscription_id", "Payment processor's subscription identifier; may be null.", func(x *p) *string { return x.SubscriptionID }),
		tfattr.Str("invoice_pdf", "Address of the invoice as a PDF; may be null.", func(x *p) *string { return x.InvoicePDF }),
		tfattr.Str("stripe_invoice_id", "Stripe's invoice identifier; may be null.", func(x *p) *string { return x.StripeInvoiceID }),
		tfattr.Num("application_fee_amount", "Application fee, in the currency's smallest unit.", func(x *p) *int64 { return x.ApplicationFeeAmount }),
		tfattr.Str("total_tax_amounts", "Taxes of the payment. Their shape is not documented: given as JSON text (use `jsondecode`).", func(x *p) *string { return (*string)(x.TotalTaxAmounts) }),
		tfattr.ObjectList("lines", "The payment's lines.", func(x *p) ([]client.PaymentLine, bool) {
			if x.Lines == nil {
				return nil, false
			}
			return *x.Lines, true
		}, paymentLineAttrs()...),
		tfattr.Str("raw_json", "The record as the API sent it (JSON), when `include_raw_json` is true; otherwise null.", func(x *p) *string { return nonEmpty(&x.RawJSON) }),
	}
}

func paymentLineAttrs() []tfattr.Attr {
	type l = client.PaymentLine
	return []tfattr.Attr{
		tfattr.Str("id", "Line identifier (the API's `_id`).", func(x *l) *string { return x.ID }),
		tfattr.Str("description", "What the line is for.", func(x *l) *string { return x.Description }),
		tfattr.Num("amount", "Amount, in the currency's smallest unit.", func(x *l) *int64 { return x.Amount }),
		tfattr.Num("quantity", "Quantity.", func(x *l) *int64 { return x.Quantity }),
	}
}

func readPayments(ctx context.Context, c *client.Client, s *paymentsState, o client.ListOptions) (err error) {
	s.payments, err = c.Payments(ctx, o)
	return err
}
