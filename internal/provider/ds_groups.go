package provider

import (
	"context"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

type groupsState struct {
	common
	groups []client.Group
}

var groupsDef = registerDataSource(dataSource[groupsState]{
	name: "groups",
	description: "Reads the organization's groups, in API order. The API specification does not show the fields of a group record: " +
		"`id`, `organization_id` and `name` are set where the API sends them, and `raw_json` always holds the whole record for `jsondecode`. " +
		"Who is in a group cannot be read: the API shows no group members, and no group ids on memberships; `raw_json` holds only what the service sends of the group itself.",
	read:     readGroups,
	readLess: "every group keeps its raw_json, since the API does not document the group fields; there is no smaller read of groups.",
	attrs: []tfattr.Attr{
		tfattr.ObjectList("groups", "The groups, in API order, each once.",
			func(s *groupsState) ([]client.Group, bool) { return s.groups, true },
			tfattr.Str("id", "Group identifier (the API's `_id`, or `id`).", func(g *client.Group) *string { return g.GroupID() }),
			tfattr.Str("organization_id", "Owning organization.", func(g *client.Group) *string { return g.OrganizationID }),
			tfattr.Str("name", "Group name, where the API sends one.", func(g *client.Group) *string { return g.Name }),
			tfattr.Str("raw_json", "The record as the API sent it (JSON). Always set, since the group fields are not documented.", func(g *client.Group) *string { return nonEmpty(&g.RawJSON) }),
		),
	},
})

func readGroups(ctx context.Context, c *client.Client, s *groupsState, o client.ListOptions) (err error) {
	s.groups, err = c.Groups(ctx, o)
	return err
}
