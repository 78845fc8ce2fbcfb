package provider

import (
	"context"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

type membershipTypesState struct {
	common
	types []client.MembershipType
}

var membershipTypesDef = registerDataSource(dataSource[membershipTypesState]{
	name: "membership_types",
	description: "Reads the organization's membership types, in API order: the key SSO modules group members by (a membership's `membership_type` is a type's `id`). " +
		"The fields are the service's public reference's; the list's path is not shown publicly, so it is assumed to be " +
		"`/api/v1/organizations/me/membership_types`: if your service answers 404 there, set its path in the provider's `endpoint_paths.membership_types`.",
	read:     readMembershipTypes,
	readLess: "read them all: an organization has a handful of membership types.",
	rawJSON:  true,
	attrs: []tfattr.Attr{
		tfattr.ObjectList("membership_types", "The membership types, in API order, each once.",
			func(s *membershipTypesState) ([]client.MembershipType, bool) { return s.types, true },
			membershipTypeAttrs()...),
	},
})

func membershipTypeAttrs() []tfattr.Attr {
	type m = client.MembershipType
	return []tfattr.Attr{
		tfattr.Str("id", "Membership type identifier (the API's `_id`): what memberships' `membership_type` holds.", func(x *m) *string { return x.ID }),
		tfattr.Str("organization_id", "Owning organization.", func(x *m) *string { return x.OrganizationID }),
		tfattr.Str("membership_name", "Name of the type: what memberships' `membership_name` holds.", func(x *m) *string { return x.MembershipName }),
		tfattr.Str("description", "Description.", func(x *m) *string { return x.Description }),
		tfattr.Num("status", "Visibility: 100 shown on the member profile, 200 hidden.", func(x *m) *int64 { return x.Status }),
		tfattr.Num("duration", "Length of a membership, in `duration_interval_type` units.", func(x *m) *int64 { return x.Duration }),
		tfattr.Str("duration_interval_type", "Unit of `duration`: day, week, month or year.", func(x *m) *string { return x.DurationIntervalType }),
		tfattr.Str("duration_display", "The duration as the service shows it.", func(x *m) *string { return x.DurationDisplay }),
		tfattr.Str("registration_type", "individual or group.", func(x *m) *string { return x.RegistrationType }),
		tfattr.Object("price", "Price; null when the API sends none.", func(x *m) *client.Price { return x.Price },
			tfattr.Num("value", "Amount, in the currency's smallest unit (10000 usd is $100.00).", func(p *client.Price) *int64 { return p.Value }),
			tfattr.Str("currency", "Currency code.", func(p *client.Price) *string { return p.Currency }),
			tfattr.Str("display", "The price as the service shows it.", func(p *client.Price) *string { return p.Display }),
			tfattr.Str("type", "fixed or donation.", func(p *client.Price) *string { return p.Type }),
		),
		tfattr.Bool("recurring", "Whether the membership renews by itself.", func(x *m) *bool { return x.Recurring }),
		tfattr.Str("raw_json", "The record as the API sent it (JSON), when `include_raw_json` is true; otherwise null.", func(x *m) *string { return nonEmpty(&x.RawJSON) }),
	}
}

func readMembershipTypes(ctx context.Context, c *client.Client, s *membershipTypesState, o client.ListOptions) (err error) {
	s.types, err = c.MembershipTypes(ctx, o)
	return err
}
