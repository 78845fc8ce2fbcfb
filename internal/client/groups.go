package client

import (
	"context"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
)

// Group is one group record. The specification does not show its fields:
// id, organization_id and name are kept where present, and RawJSON always.
type Group struct {
	ID             *string `json:"_id"`
	AltID          *string `json:"id"`
	OrganizationID *string `json:"organization_id"`
	Name           *string `json:"name"`
	RawJSON        string  `json:"-"`
}

func (g *Group) organizationValue() *string { return g.OrganizationID }

func (g *Group) Key() string {
	if g.ID != nil {
		return *g.ID
	}
	return deref(g.AltID)
}

func (g *Group) SetRaw(r []byte) { g.RawJSON = string(r) }

// GroupID is the group's _id, or its id where the API names it so.
func (g *Group) GroupID() *string {
	if g.ID != nil {
		return g.ID
	}
	return g.AltID
}

// Groups reads every group, in API order. Their raw JSON is always kept:
// the specification does not show the group fields.
func (c *Client) Groups(ctx context.Context, o ListOptions) ([]Group, error) {
	r, err := readList[Group](ctx, c, listRead[Group]{endpoint: apispec.EndpointGroups, opts: ListOptions{PageSize: o.PageSize, KeepRaw: true}})
	return r.records, err
}

func (g *Group) weigh() (nested, text int64) {
	return 0, textOf(g.ID, g.AltID, g.OrganizationID, g.Name) + int64(len(g.RawJSON))
}
