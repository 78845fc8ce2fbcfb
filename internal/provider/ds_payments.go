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
	description: "Reads the organization's payments, in API order. Amounts are the integers the API returns (most likely the currency's smallest unit, e.g. cents; the API specification does not say).",
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
		num("subtotal", "Subtotal, as the integer the API returns.", func(x *p) *int64 { return x.Subtotal }),
		num("total", "Total, as the integer the API returns.", func(x *p) *int64 { return x.Total }),
		str("payment_date", "When the payment was made."+timestampNote, func(x *p) *string { return x.PaymentDate }),
		str("created", "Creation time."+timestampNote, func(x *p) *string { return x.Created }),
		str("updated", "Last update time."+timestampNote, func(x *p) *string { return x.Updated }),
		str("raw_json", "The record as the API sent it (JSON), when `include_raw_json` is true; otherwise null.", func(x *p) *string { return nonEmpty(&x.RawJSON) }),
	}
}

func readPayments(ctx context.Context, c *client.Client, s *paymentsState, o client.ListOptions) (err error) {
	s.payments, err = c.Payments(ctx, o)
	return err
}
