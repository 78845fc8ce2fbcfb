package client

import (
	"context"
	"reflect"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
)

// MembershipType is one membership type, with the fields of the
// service's public reference (API.md#records-and-fields); the list's path
// is an assumption (API.md#endpoints).
type MembershipType struct {
	ID                   *string `json:"_id"`
	OrganizationID       *string `json:"organization_id"`
	MembershipName       *string `json:"membership_name"`
	Description          *string `json:"description"`
	Status               *int64  `json:"status"` // 100 shown on the profile, 200 hidden
	Duration             *int64  `json:"duration"`
	DurationIntervalType *string `json:"duration_interval_type"`
	DurationDisplay      *string `json:"duration_display"`
	RegistrationType     *string `json:"registration_type"`
	Price                *Price  `json:"price"`
	Recurring            *bool   `json:"recurring"`
	RawJSON              string  `json:"-"`
}

// Price is a membership type's price; Value is in the currency's smallest
// unit.
type Price struct {
	Value    *int64  `json:"value"`
	Currency *string `json:"currency"`
	Display  *string `json:"display"`
	Type     *string `json:"type"` // fixed or donation
}

func (m *MembershipType) organizationValue() *string { return m.OrganizationID }

func (m *MembershipType) Key() string { return deref(m.ID) }

func (m *MembershipType) SetRaw(r []byte) { m.RawJSON = string(r) }

// MembershipTypes reads every membership type, in API order.
func (c *Client) MembershipTypes(ctx context.Context, o ListOptions) ([]MembershipType, error) {
	r, err := readList[MembershipType](ctx, c, listRead[MembershipType]{endpoint: apispec.EndpointMembershipTypes, opts: ListOptions{PageSize: o.PageSize, KeepRaw: o.KeepRaw}})
	return r.records, err
}

// priceFields is the width of a nested price: one value a field.
var priceFields = int64(len(pagejson.FieldIndex(reflect.TypeFor[Price]())))

func (m *MembershipType) weigh() (nested, text int64) {
	text = textOf(m.ID, m.OrganizationID, m.MembershipName, m.Description, m.DurationIntervalType, m.DurationDisplay, m.RegistrationType) + int64(len(m.RawJSON))
	if p := m.Price; p != nil {
		nested = priceFields
		text += textOf(p.Currency, p.Display, p.Type)
	}
	return nested, text
}
